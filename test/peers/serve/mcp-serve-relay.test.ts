/**
 * Issue 31, sampling and roots across the eras, through the compiled binary: an upstream server's
 * `sampling/createMessage` during a call reaches the client that made the call, if it declared
 * sampling, in the client's own era (a request to a handshake client, over stdio or on the call's
 * HTTP stream; an `input_required` entry for a 2026-07-28 client), and the client's answer goes
 * back upstream; a client without sampling is refused clearly. An upstream's `roots/list` during
 * a 2026-07-28 client's call is that client's to answer. Upstreams: the official SDK v1 server
 * (fixtures/sdk-v1-asking-server.ts: requests), the SDK v2 server (`ask_capital`: an
 * `input_required` of its own) and the hand-written 2026-07-28 fixture (`list_roots`).
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { pathToFileURL } from "node:url";
import { Client as ClientV1 } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport as StdioV1 } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport as HttpV1 } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { CreateMessageRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { Client as ClientV2, StreamableHTTPClientTransport as HttpV2 } from "@modelcontextprotocol/client";
import { StdioClientTransport as StdioV2 } from "@modelcontextprotocol/client/stdio";
import { compiledBinary, runBinary } from "../../helpers/binary.ts";
import { resultText, servedOverHttp, type ServedHttp } from "../../helpers/served-http.ts";
import { BUN, CHAOS_SERVER, MODERN_SERVER, REPO, SDK_V2_SERVER, tempDir, writeConfig } from "../../helpers/paths.ts";
import { modernMeta, post, readSse } from "../../helpers/raw-peers.ts";

const SDK_V1_ASKING = `${REPO}/fixtures/sdk-v1-asking-server.ts`;

let binary: string;
let config: string;
let home: string;
/** The client's folder: roots are passed on only when they are folders on this machine. */
let project: string;

beforeAll(async () => {
  binary = await compiledBinary();
  home = tempDir();
  project = pathToFileURL(tempDir()).href;
  config = writeConfig({
    v1: { command: BUN, args: [SDK_V1_ASKING] },
    v2: { command: BUN, args: [SDK_V2_SERVER, "--stdio"] },
    modern: { command: BUN, args: [MODERN_SERVER, "--stdio"] },
    asker: { command: BUN, args: [CHAOS_SERVER, "--ask-tool"] },
  });
}, 120_000);

const env = () => ({ ...(process.env as Record<string, string>), CAT_CODE_HOME: home });
const MODEL_ANSWER = { role: "assistant" as const, content: { type: "text" as const, text: "Paris" }, model: "client-model", stopReason: "endTurn" };

/** A v1 client whose model answers every sampling request with MODEL_ANSWER, noting each prompt. */
function samplingClientV1(prompts: string[]): ClientV1 {
  const client = new ClientV1({ name: "sdk-v1-sampling", version: "1.0.0" }, { capabilities: { sampling: {} } });
  client.setRequestHandler(CreateMessageRequestSchema, async (request) => {
    const content = request.params.messages[0]?.content;
    prompts.push(content && "text" in content ? String(content.text) : "");
    return MODEL_ANSWER;
  });
  return client;
}

describe("a handshake client over stdio that declares sampling", () => {
  const prompts: string[] = [];
  let client: ClientV1;
  beforeAll(async () => {
    client = samplingClientV1(prompts);
    await client.connect(new StdioV1({ command: binary, args: ["mcp", "serve", "--mcp-config", config], env: env(), stderr: "ignore" }));
  }, 60_000);
  afterAll(() => client?.close());

  test("a handshake upstream's sampling/createMessage reaches its model, and the answer goes back", async () => {
    expect(resultText(await client.callTool({ name: "v1__sample", arguments: { prompt: "Name a capital" } }))).toBe("the model said: Paris");
    expect(prompts).toContain("Name a capital");
  });

  test("a 2026-07-28 upstream's sampling input request comes to it as a sampling/createMessage request", async () => {
    expect(resultText(await client.callTool({ name: "v2__ask_capital", arguments: {} }))).toBe("The model (client-model) said: Paris");
    expect(prompts).toContain("What is the capital of France?");
  });
});

describe("a handshake client over stdio without sampling", () => {
  test("is never asked: the upstream hears that the client did not declare sampling", async () => {
    const client = new ClientV1({ name: "sdk-v1-plain", version: "1.0.0" });
    await client.connect(new StdioV1({ command: binary, args: ["mcp", "serve", "--mcp-config", config, "--server", "v1"], env: env(), stderr: "ignore" }));
    try {
      const result = await client.callTool({ name: "v1__sample", arguments: { prompt: "hi" } });
      expect(result.isError).toBe(true);
      expect(resultText(result)).toContain("the client of mcp serve did not declare sampling");
    } finally {
      await client.close();
    }
  }, 60_000);
});

describe("a 2026-07-28 client over stdio that declares sampling and roots", () => {
  const asked: string[] = [];
  let client: ClientV2;
  beforeAll(async () => {
    client = new ClientV2(
      { name: "sdk-v2-client", version: "2.4.0" },
      { versionNegotiation: { mode: "auto" }, capabilities: { sampling: {}, roots: { listChanged: true }, elicitation: { form: {} } } },
    );
    client.setRequestHandler("sampling/createMessage", async () => (asked.push("sampling"), MODEL_ANSWER));
    client.setRequestHandler("roots/list", async () => (asked.push("roots"), { roots: [{ uri: project, name: "project" }] }));
    client.setRequestHandler("elicitation/create", async () => (asked.push("question"), { action: "accept", content: { name: "Grace" } }));
    await client.connect(new StdioV2({ command: binary, args: ["mcp", "serve", "--mcp-config", config], env: env(), stderr: "ignore" }));
  }, 60_000);
  afterAll(() => client?.close());

  test("speaks 2026-07-28 to mcp serve", () => {
    expect(client.getNegotiatedProtocolVersion()).toBe("2026-07-28");
  });

  test("a 2026-07-28 upstream's sampling goes to its model through input_required", async () => {
    expect(resultText(await client.callTool({ name: "v2__ask_capital", arguments: {} }))).toBe("The model (client-model) said: Paris");
  });

  test("an upstream's roots/list during its call is answered with its own roots, from either era of upstream", async () => {
    expect(resultText(await client.callTool({ name: "modern__list_roots", arguments: {} }))).toBe(`${project} (project)`);
    expect(resultText(await client.callTool({ name: "v1__list_roots", arguments: {} }))).toBe(`roots: ${project}`);
  });

  test("a question, a sampling request and a roots request asked at once are all answered", async () => {
    asked.length = 0;
    const result = resultText(await client.callTool({ name: "v1__ask_all", arguments: {} }));
    expect(result).toBe('name {"name":"Grace"}, greeting Paris, roots 1');
    expect(asked.sort()).toEqual(["question", "roots", "sampling"]);
  });
});

describe("a 2026-07-28 client without sampling", () => {
  // A 2026-07-28 upstream is never asked under sampling for it (mcp-serve-forwarded-capabilities.test.ts); a handshake upstream was told cat-code's capabilities.
  // Over stdio its request names no call: the call is only guessed, so it is not failed with -32021 (that is for a call the request names: input-rounds.test.ts).
  test("a handshake upstream's sampling over stdio, which names no call, is refused upstream and the call goes on: no -32021 for a guessed call", async () => {
    const client = new ClientV2({ name: "sdk-v2-client", version: "2.4.0" }, { versionNegotiation: { mode: "auto" } });
    await client.connect(new StdioV2({ command: binary, args: ["mcp", "serve", "--mcp-config", config, "--server", "v1"], env: env(), stderr: "ignore" }));
    try {
      const result = await client.callTool({ name: "v1__sample", arguments: { prompt: "hi" } });
      expect(result.isError).toBe(true);
      expect(resultText(result)).toContain("the client of mcp serve did not declare sampling");
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

  test("a handshake client's model is asked on its call's response stream, in front of either era of upstream", async () => {
    const prompts: string[] = [];
    const client = samplingClientV1(prompts);
    await client.connect(new HttpV1(served.url, { requestInit: served.requestInit }));
    try {
      expect(resultText(await client.callTool({ name: "v1__sample", arguments: { prompt: "Over HTTP" } }))).toBe("the model said: Paris");
      expect(resultText(await client.callTool({ name: "v2__ask_capital", arguments: {} }))).toBe("The model (client-model) said: Paris");
      expect(prompts).toEqual(["Over HTTP", "What is the capital of France?"]);
    } finally {
      await client.close();
    }
  });

  test("a 2026-07-28 client gets the three requests of one upstream round in one input_required, under the upstream's keys where it has them", async () => {
    const client = new ClientV2({ name: "sdk-v2-http", version: "2.4.0" }, { versionNegotiation: { mode: "auto" }, capabilities: { sampling: {}, roots: {}, elicitation: { form: {} } } });
    client.setRequestHandler("sampling/createMessage", async () => MODEL_ANSWER);
    client.setRequestHandler("roots/list", async () => ({ roots: [{ uri: project }] }));
    client.setRequestHandler("elicitation/create", async () => ({ action: "accept", content: { name: "Ada" } }));
    // What mcp serve answers, seen on the wire: the SDK client hides the rounds.
    const bodies: string[] = [];
    const recording = async (input: string | URL | Request, init?: RequestInit) => {
      const response = await fetch(input, init);
      bodies.push(await response.clone().text());
      return response;
    };
    await client.connect(new HttpV2(served.url, { requestInit: served.requestInit, fetch: recording }));
    try {
      expect(resultText(await client.callTool({ name: "v1__ask_all", arguments: {} }))).toBe('name {"name":"Ada"}, greeting Paris, roots 1');
      expect(resultText(await client.callTool({ name: "v2__ask_capital", arguments: {} }))).toBe("The model (client-model) said: Paris");
      const rounds = bodies.filter((body) => body.includes('"inputRequests"')).map((body) => JSON.parse(body).result.inputRequests as Record<string, { method: string }>);
      expect(rounds.map((round) => Object.values(round).map((request) => request.method).sort())).toEqual([["elicitation/create", "roots/list", "sampling/createMessage"], ["sampling/createMessage"]]);
      expect(Object.keys(rounds[1]!)).toEqual(["capital_question"]);
    } finally {
      await client.close();
    }
  });

  test("a 2026-07-28 client's retry hears the call's progress after its answer, under the retry's own progressToken", async () => {
    const auth = { Authorization: served.authorization };
    const meta = (progressToken: string) => modernMeta({ "io.modelcontextprotocol/clientCapabilities": { elicitation: { form: {} } }, progressToken });
    // A request with a progressToken is answered as an event stream: its last message is the answer.
    const first = (await readSse(await post(served.url.href, { id: 1, method: "tools/call", params: { name: "asker__ask", arguments: {}, _meta: meta("first") } }, auth))).at(-1);
    expect(first.result).toMatchObject({ resultType: "input_required", inputRequests: { q1: { method: "elicitation/create" } } });
    const retry = { name: "asker__ask", arguments: {}, inputResponses: { q1: { action: "decline" } }, requestState: first.result.requestState, _meta: meta("retry") };
    const messages = await readSse(await post(served.url.href, { id: 2, method: "tools/call", params: retry }, auth));
    expect(messages[0]).toMatchObject({ method: "notifications/progress", params: { progressToken: "retry", progress: 1, total: 1, message: "answered" } });
    expect(messages.at(-1)).toMatchObject({ id: 2, result: { content: [{ type: "text", text: "elicitation: decline" }] } });
  });
});

describe("cat-code's own pool (mcp call), which has no client to relay to", () => {
  test("declares no sampling: the upstream's request is refused as before (-32601), and a 2026-07-28 upstream never asks", async () => {
    const call = (server: string, tool: string, ...args: string[]) => runBinary(["mcp", "call", server, tool, ...args, "--mcp-config", config], { env: { CAT_CODE_HOME: tempDir() } });
    const handshake = await call("v1", "sample", "prompt=hi");
    expect(handshake.stdout).toContain("asking the client failed: MCP error -32601: Method not found: sampling/createMessage");
    // SDK v2 will not ask a client that did not declare sampling.
    const modern = await call("v2", "ask_capital");
    expect(modern.stderr).toContain("Cannot request input 'capital_question' (sampling/createMessage): the request's client capabilities do not declare the required capability");
    expect(modern.exitCode).not.toBe(0);
  }, 60_000);
});
