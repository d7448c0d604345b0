/**
 * Issue 31, a gateway's capabilities, through the compiled binary: mcp serve asks a 2026-07-28
 * upstream under what the calling client declared (its request's `_meta`, or its `initialize`), so
 * the upstream sees that client's capabilities and refuses with its own -32021, which reaches the
 * client unchanged (code, message, `data.requiredCapabilities`) instead of an error result. Upstreams:
 * the SDK v2 server (`ask_capital`: the SDK refuses to ask for sampling the request did not declare)
 * and the hand-written 2026-07-28 fixture (`ask_name`: -32021 unless the request declares elicitation).
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { Client as ClientV1 } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport as StdioV1 } from "@modelcontextprotocol/sdk/client/stdio.js";
import { Client as ClientV2 } from "@modelcontextprotocol/client";
import { StdioClientTransport as StdioV2 } from "@modelcontextprotocol/client/stdio";
import { compiledBinary } from "../../helpers/binary.ts";
import { resultText } from "../../helpers/served-http.ts";
import { BUN, MODERN_SERVER, SDK_V2_SERVER, tempDir, writeConfig } from "../../helpers/paths.ts";

let binary: string;
let config: string;
let home: string;

beforeAll(async () => {
  binary = await compiledBinary();
  home = tempDir();
  config = writeConfig({
    v2: { command: BUN, args: [SDK_V2_SERVER, "--stdio"] },
    modern: { command: BUN, args: [MODERN_SERVER, "--stdio"] },
  });
}, 120_000);

const serve = () => ({ command: binary, args: ["mcp", "serve", "--mcp-config", config], env: { ...(process.env as Record<string, string>), CAT_CODE_HOME: home }, stderr: "ignore" as const });
const MODEL_ANSWER = { role: "assistant" as const, content: { type: "text" as const, text: "Paris" }, model: "client-model", stopReason: "endTurn" };
const SAMPLING_REFUSED = "Cannot request input 'capital_question' (sampling/createMessage): the request's client capabilities do not declare the required capability";
const ELICITATION_REFUSED = 'this tool needs the client capability "elicitation"';

describe("a 2026-07-28 client that declares nothing", () => {
  let client: ClientV2;
  beforeAll(async () => {
    client = new ClientV2({ name: "sdk-v2-plain", version: "2.4.0" }, { versionNegotiation: { mode: "auto" } });
    await client.connect(new StdioV2(serve()));
  }, 60_000);
  afterAll(() => client?.close());

  test("the upstream is not told sampling: its own -32021 reaches the client unchanged", async () => {
    expect(client.getNegotiatedProtocolVersion()).toBe("2026-07-28");
    const call = client.callTool({ name: "v2__ask_capital", arguments: {} });
    await expect(call).rejects.toMatchObject({ code: -32021, data: { requiredCapabilities: { sampling: {} } } });
    await expect(call).rejects.toThrow(SAMPLING_REFUSED);
  });

  test("the upstream is not told elicitation: its -32021 names what it needs", async () => {
    const call = client.callTool({ name: "modern__ask_name", arguments: {} });
    await expect(call).rejects.toMatchObject({ code: -32021, data: { requiredCapabilities: { elicitation: { form: {} } } } });
    await expect(call).rejects.toThrow(ELICITATION_REFUSED);
  });

  test("roots are still declared: cat-code answers the upstream's roots/list with its own folders", async () => {
    expect(resultText(await client.callTool({ name: "modern__list_roots", arguments: {} }))).toStartWith("file://");
  });
});

describe("a 2026-07-28 client that declares sampling and elicitation", () => {
  test("the upstream asks, and the client's answers come back", async () => {
    const client = new ClientV2({ name: "sdk-v2-able", version: "2.4.0" }, { versionNegotiation: { mode: "auto" }, capabilities: { sampling: {}, elicitation: { form: {} } } });
    client.setRequestHandler("sampling/createMessage", async () => MODEL_ANSWER);
    client.setRequestHandler("elicitation/create", async () => ({ action: "accept", content: { name: "Grace" } }));
    await client.connect(new StdioV2(serve()));
    try {
      expect(resultText(await client.callTool({ name: "v2__ask_capital", arguments: {} }))).toBe("The model (client-model) said: Paris");
      expect(resultText(await client.callTool({ name: "modern__ask_name", arguments: {} }))).toBe("Hello Grace");
    } finally {
      await client.close();
    }
  }, 60_000);
});

describe("a handshake client that declared no elicitation at initialize", () => {
  test("a 2026-07-28 upstream is asked under those capabilities, and its -32021 comes back as a JSON-RPC error", async () => {
    const client = new ClientV1({ name: "sdk-v1-plain", version: "1.0.0" });
    await client.connect(new StdioV1(serve()));
    try {
      const call = client.callTool({ name: "modern__ask_name", arguments: {} });
      await expect(call).rejects.toMatchObject({ code: -32021, data: { requiredCapabilities: { elicitation: { form: {} } } } });
      await expect(call).rejects.toThrow(ELICITATION_REFUSED);
    } finally {
      await client.close();
    }
  }, 60_000);
});
