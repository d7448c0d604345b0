/**
 * Issue 31 through the compiled binary: `cat-code mcp serve` over stdio, in front of the project's
 * fixture servers (the bash echo server, an SDK v1 server, our 2026-07-28-only server, a server of
 * resources and prompts, and one that crashes on request), as the official clients see it: the SDK
 * v1 client, and the SDK v2 client in both of its modes (2025-11-25 by default, 2026-07-28 with
 * `versionNegotiation: auto`).
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { Client as ClientV1 } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport as StdioV1 } from "@modelcontextprotocol/sdk/client/stdio.js";
import { ElicitRequestSchema, ListRootsRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { realpathSync } from "node:fs";
import { pathToFileURL } from "node:url";
import { Client as ClientV2 } from "@modelcontextprotocol/client";
import { StdioClientTransport as StdioV2 } from "@modelcontextprotocol/client/stdio";
import { join } from "node:path";
import { compiledBinary } from "../../helpers/binary.ts";
import { resultText } from "../../helpers/served-http.ts";
import { waitFor } from "../../helpers/wait-for.ts";
import { BUN, CHAOS_SERVER, ECHO_SERVER, MODERN_SERVER, REPO, SDK_STDIO_SERVER, SDK_V2_SERVER, tempDir, writeConfig } from "../../helpers/paths.ts";

const RESOURCE_SERVER = join(REPO, "fixtures", "resources", "resource-server.ts");

let binary: string;
let config: string;
let home: string;

beforeAll(async () => {
  binary = await compiledBinary();
  home = tempDir();
  config = writeConfig({
    echo: { command: ECHO_SERVER },
    sdk: { command: BUN, args: [SDK_STDIO_SERVER] },
    modern: { command: BUN, args: [MODERN_SERVER, "--stdio"] },
    files: { command: BUN, args: [RESOURCE_SERVER] },
    chaos: { command: BUN, args: [CHAOS_SERVER, "--crash-tool"] },
    dual: { command: BUN, args: [SDK_V2_SERVER, "--stdio"] },
  });
}, 120_000);

const serveArgs = (...extra: string[]) => ["mcp", "serve", "--mcp-config", config, ...extra];
const serveEnv = () => ({ ...(process.env as Record<string, string>), CAT_CODE_HOME: home });

describe("the SDK v1 client", () => {
  let client: ClientV1;
  beforeAll(async () => {
    client = new ClientV1({ name: "sdk-v1-client", version: "1.0.0" });
    await client.connect(new StdioV1({ command: binary, args: serveArgs(), env: serveEnv(), stderr: "ignore" }));
  }, 60_000);
  afterAll(() => client?.close());

  test("lists every server's tools as <server>__<tool> and calls them, old-only and modern-only alike", async () => {
    const { tools } = await client.listTools();
    const names = tools.map((tool) => tool.name);
    expect(names).toEqual(expect.arrayContaining(["echo__echo", "sdk__echo", "sdk__add", "modern__echo", "chaos__crash"]));
    expect(client.getServerVersion()).toMatchObject({ name: "cat-code" });
    expect(resultText(await client.callTool({ name: "echo__echo", arguments: { text: "from bash" } }))).toBe("from bash");
    expect(await client.callTool({ name: "sdk__add", arguments: { a: 2, b: 3 } })).toMatchObject({ structuredContent: { sum: 5 } });
    expect(resultText(await client.callTool({ name: "modern__echo", arguments: { text: "from 2026" } }))).toBe("from 2026");
  });

  test("resources keep their URIs, templates and prompts are served, and completions reach their server", async () => {
    const { resources } = await client.listResources();
    expect(resources.map((r) => r.uri)).toContain("fixture://text/1");
    const read = await client.readResource({ uri: "fixture://text/1" });
    expect(read.contents[0]).toMatchObject({ uri: "fixture://text/1" });
    const { resourceTemplates } = await client.listResourceTemplates();
    expect(resourceTemplates.map((t) => t.uriTemplate)).toContain("fixture://greeting/{name}{?lang}");
    const { prompts } = await client.listPrompts();
    expect(prompts.map((p) => p.name)).toContain("files__greet");
    const prompt = await client.getPrompt({ name: "files__greet", arguments: { name: "Ada" } });
    expect(JSON.stringify(prompt.messages)).toContain("Ada");
    const completion = await client.complete({ ref: { type: "ref/prompt", name: "files__greet" }, argument: { name: "name", value: "" } });
    expect(completion.completion.values.length).toBeGreaterThan(0);
  });

  test("an unknown tool is an invalid-params error; the endpoint keeps serving", async () => {
    await expect(client.callTool({ name: "nobody__nothing", arguments: {} })).rejects.toThrow(/Unknown tool: nobody__nothing/);
    expect(resultText(await client.callTool({ name: "echo__echo", arguments: { text: "still here" } }))).toBe("still here");
  });
});

describe("an upstream server that dies mid-call", () => {
  test("gives that call an error result, and the endpoint keeps serving the others", async () => {
    const client = new ClientV1({ name: "sdk-v1-client", version: "1.0.0" });
    await client.connect(new StdioV1({ command: binary, args: serveArgs("--server", "chaos,echo"), env: serveEnv(), stderr: "ignore" }));
    try {
      const crashed = await client.callTool({ name: "chaos__crash", arguments: { code: 7, stderr: "going down" } });
      expect(crashed.isError).toBe(true);
      expect(resultText(crashed)).toContain("MCP server 'chaos' failed on tool 'crash'");
      expect(resultText(crashed)).toContain("going down");
      expect(resultText(await client.callTool({ name: "echo__echo", arguments: { text: "alive" } }))).toBe("alive");
      const again = await client.callTool({ name: "chaos__crash", arguments: {} });
      expect(again.isError).toBe(true);
      expect(resultText(again)).toContain("MCP server 'chaos' is not connected");
    } finally {
      await client.close();
    }
  }, 60_000);
});

describe("between the two sides", () => {
  let client: ClientV1;
  const asked: string[] = [];
  beforeAll(async () => {
    client = new ClientV1({ name: "sdk-v1-client", version: "1.0.0" }, { capabilities: { elicitation: { form: {} } } });
    client.setRequestHandler(ElicitRequestSchema, async (request) => {
      asked.push(request.params.message);
      return { action: "accept", content: { name: "Grace" } };
    });
    await client.connect(new StdioV1({ command: binary, args: serveArgs("--server", "dual"), env: serveEnv(), stderr: "ignore" }));
  }, 60_000);
  afterAll(() => client?.close());

  test("a server's progress reaches the client under the client's own token", async () => {
    const updates: number[] = [];
    const result = await client.callTool({ name: "dual__slow_progress", arguments: { steps: 3, delayMs: 30 } }, undefined, {
      onprogress: (progress) => updates.push(progress.progress),
    });
    expect(result.isError).toBeFalsy();
    // The SDK v1 client handles a notification a microtask after a response read in the same chunk,
    // and forgets the call's progress handler at the response: the last update, written just before
    // the result, may be read with it and dropped. The earlier ones, 30 ms apart, always arrive.
    expect(updates.slice(0, 2)).toEqual([1, 2]);
    expect([[1, 2], [1, 2, 3]]).toContainEqual(updates);
  });

  test("a server's question (an input_required of 2026-07-28) is put to the client as elicitation/create, and its answer goes back", async () => {
    expect(resultText(await client.callTool({ name: "dual__ask_name", arguments: {} }))).toBe("Hello Grace");
    expect(asked).toEqual(["dual: What is your name?"]);
  });

  test("a call the client cancels is given up, and the endpoint keeps serving", async () => {
    const controller = new AbortController();
    const call = client.callTool({ name: "dual__slow_progress", arguments: { steps: 1000, delayMs: 20 } }, undefined, {
      signal: controller.signal,
      onprogress: () => controller.abort(),
    });
    await expect(call).rejects.toThrow();
    const after = await client.callTool({ name: "dual__slow_progress", arguments: { steps: 1, delayMs: 1 } });
    expect(after.isError).toBeFalsy();
  });
});

describe("the client's roots", () => {
  test("a client that declares roots has its folders told to the servers behind (here a 2026-07-28 one asking for them)", async () => {
    const folder = realpathSync(tempDir("cat-code-client-root-"));
    const client = new ClientV1({ name: "sdk-v1-client", version: "1.0.0" }, { capabilities: { roots: { listChanged: true } } });
    client.setRequestHandler(ListRootsRequestSchema, async () => ({ roots: [{ uri: pathToFileURL(folder).href, name: "client folder" }] }));
    await client.connect(new StdioV1({ command: binary, args: serveArgs("--server", "modern"), env: serveEnv(), stderr: "ignore" }));
    try {
      // The client is asked once it is ready; the call waits for nothing else, so poll the answer.
      let listed = "";
      await waitFor(async () => {
        listed = resultText(await client.callTool({ name: "modern__list_roots", arguments: {} }));
        return listed.includes(pathToFileURL(folder).href);
      }, () => `the client's folder among the roots; the server listed: ${listed}`);
    } finally {
      await client.close();
    }
  }, 60_000);
});

describe("the SDK v2 client", () => {
  for (const [mode, version] of [
    ["default", "2025-11-25"],
    ["auto", "2026-07-28"],
  ] as const) {
    test(`(${mode} version negotiation) speaks ${version} to it, lists and calls tools`, async () => {
      const client = new ClientV2({ name: "sdk-v2-client", version: "2.4.0" }, mode === "auto" ? { versionNegotiation: { mode: "auto" } } : {});
      await client.connect(new StdioV2({ command: binary, args: serveArgs("--server", "echo,modern"), env: serveEnv(), stderr: "ignore" }));
      try {
        expect(client.getNegotiatedProtocolVersion()).toBe(version);
        const { tools } = await client.listTools();
        expect(tools.map((tool) => tool.name)).toEqual(expect.arrayContaining(["echo__echo", "modern__echo"]));
        expect(resultText(await client.callTool({ name: "modern__echo", arguments: { text: `v2 ${mode}` } }))).toBe(`v2 ${mode}`);
      } finally {
        await client.close();
      }
    }, 60_000);
  }
});
