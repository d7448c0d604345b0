/**
 * Issue 31, server-to-client questions across the eras, through the compiled binary: an upstream
 * server's question during a call reaches the client that made the call in the client's own era.
 * A 2026-07-28 client (the SDK v2 client with `versionNegotiation: auto`) is never sent a request:
 * it gets an `input_required` result and retries with its answers, which `mcp serve` hands to the
 * upstream question still waiting, whether that upstream asked with an `input_required` of its own
 * (the SDK v2 server) or with an `elicitation/create` request (a handshake-era server). Over HTTP
 * a handshake client (the SDK v1 client) is asked on its call's own response stream and POSTs its answer.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { Client as ClientV1 } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport as HttpV1 } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { ElicitRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { Client as ClientV2, StreamableHTTPClientTransport as HttpV2 } from "@modelcontextprotocol/client";
import { StdioClientTransport as StdioV2 } from "@modelcontextprotocol/client/stdio";
import { compiledBinary } from "../../helpers/binary.ts";
import { resultText, servedOverHttp, type ServedHttp } from "../../helpers/served-http.ts";
import { BUN, CHAOS_SERVER, MODERN_SERVER, SDK_V2_SERVER, tempDir, writeConfig } from "../../helpers/paths.ts";

let binary: string;
let config: string;
let home: string;

beforeAll(async () => {
  binary = await compiledBinary();
  home = tempDir();
  config = writeConfig({
    dual: { command: BUN, args: [SDK_V2_SERVER, "--stdio"] },
    asker: { command: BUN, args: [CHAOS_SERVER, "--ask-tool"] },
    modern: { command: BUN, args: [MODERN_SERVER, "--stdio"] },
  });
}, 120_000);


describe("a 2026-07-28 client that declares elicitation", () => {
  let client: ClientV2;
  const asked: string[] = [];
  beforeAll(async () => {
    client = new ClientV2({ name: "sdk-v2-client", version: "2.4.0" }, { versionNegotiation: { mode: "auto" }, capabilities: { elicitation: { form: {} } } });
    client.setRequestHandler("elicitation/create", async (request) => {
      const { message } = request.params as { message: string };
      asked.push(message);
      if (message.includes("email")) return { action: "decline" };
      return { action: "accept", content: { name: message.includes("greeted") ? "Alan" : "Grace" } };
    });
    const env = { ...(process.env as Record<string, string>), CAT_CODE_HOME: home };
    await client.connect(new StdioV2({ command: binary, args: ["mcp", "serve", "--mcp-config", config], env, stderr: "ignore" }));
  }, 60_000);
  afterAll(() => client?.close());

  test("speaks 2026-07-28 to mcp serve", () => {
    expect(client.getNegotiatedProtocolVersion()).toBe("2026-07-28");
  });

  test("a modern upstream's input_required comes to it as input_required, and its answer reaches the upstream", async () => {
    expect(resultText(await client.callTool({ name: "dual__ask_name", arguments: {} }))).toBe("Hello Grace");
    expect(asked).toContain("dual: What is your name?");
  });

  test("a prompt's question (prompts/get, MRTR upstream) takes the same rounds", async () => {
    const prompt = await client.getPrompt({ name: "modern__greet_asked", arguments: {} });
    expect(prompt.messages).toEqual([{ role: "user", content: { type: "text", text: "Please greet Alan." } }]);
    expect(asked).toContain("modern: Who should be greeted?");
  });

  test("a handshake upstream's elicitation/create comes to it as input_required, and its answer goes back as the reply", async () => {
    expect(resultText(await client.callTool({ name: "asker__ask", arguments: {} }))).toBe("elicitation: decline");
    expect(asked).toContain("asker: Which email address?");
  });
});

describe("a 2026-07-28 client that declares no elicitation", () => {
  test("is never asked: the upstream question is declined for it", async () => {
    const client = new ClientV2({ name: "sdk-v2-client", version: "2.4.0" }, { versionNegotiation: { mode: "auto" } });
    const env = { ...(process.env as Record<string, string>), CAT_CODE_HOME: home };
    await client.connect(new StdioV2({ command: binary, args: ["mcp", "serve", "--mcp-config", config, "--server", "asker"], env, stderr: "ignore" }));
    try {
      expect(client.getNegotiatedProtocolVersion()).toBe("2026-07-28");
      expect(resultText(await client.callTool({ name: "asker__ask", arguments: {} }))).toBe("elicitation: decline");
    } finally {
      await client.close();
    }
  }, 60_000);
});

describe("over HTTP", () => {
  let served: ServedHttp;
  beforeAll(async () => {
    served = await servedOverHttp([binary, "mcp", "serve", "--http", "--mcp-config", config]);
  }, 120_000);
  afterAll(() => served?.stop());

  test("a handshake client is asked on its call's response stream, in front of either era of upstream", async () => {
    const asked: string[] = [];
    const client = new ClientV1({ name: "sdk-v1-http", version: "1.0.0" }, { capabilities: { elicitation: { form: {} } } });
    client.setRequestHandler(ElicitRequestSchema, async (request) => {
      asked.push(request.params.message);
      return { action: "accept", content: { name: "Ada Lovelace", email: "ada@example.com" } };
    });
    await client.connect(new HttpV1(served.url, { requestInit: served.requestInit }));
    try {
      expect(resultText(await client.callTool({ name: "dual__ask_name", arguments: {} }))).toBe("Hello Ada Lovelace");
      expect(resultText(await client.callTool({ name: "asker__ask", arguments: {} }))).toBe("elicitation: accept");
      expect(asked).toEqual(["dual: What is your name?", "asker: Which email address?"]);
    } finally {
      await client.close();
    }
  });

  test("a 2026-07-28 client gets input_required (under the upstream's own key) and its retry is answered", async () => {
    const client = new ClientV2({ name: "sdk-v2-http", version: "2.4.0" }, { versionNegotiation: { mode: "auto" }, capabilities: { elicitation: { form: {} } } });
    client.setRequestHandler("elicitation/create", async () => ({ action: "accept", content: { name: "Grace" } }));
    // What mcp serve answers, seen on the wire: the SDK client hides the rounds.
    const bodies: string[] = [];
    const recording = async (input: string | URL | Request, init?: RequestInit) => {
      const response = await fetch(input, init);
      bodies.push(await response.clone().text());
      return response;
    };
    await client.connect(new HttpV2(served.url, { requestInit: served.requestInit, fetch: recording }));
    try {
      expect(client.getNegotiatedProtocolVersion()).toBe("2026-07-28");
      expect(resultText(await client.callTool({ name: "dual__ask_name", arguments: {} }))).toBe("Hello Grace");
      // The SDK v2 server asks under the key `name`: the client is asked under the same key.
      const rounds = bodies.filter((body) => body.includes('"inputRequests"'));
      expect(rounds).toHaveLength(1);
      expect(rounds[0]).toContain('"inputRequests":{"name":{"method":"elicitation/create"');
    } finally {
      await client.close();
    }
  });
});
