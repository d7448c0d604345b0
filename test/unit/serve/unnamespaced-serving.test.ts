/**
 * `mcp serve --no-namespace`: one server's tools and prompts under their own names, so a client
 * written for that server (the conformance suite, calling `test_simple_text`) reaches it as it
 * would directly. The upstream is an in-memory transport: only the pool's contract is needed.
 */
import { afterEach, describe, expect, test } from "bun:test";
import { checkUnnamespaced } from "../../../src/cli/mcp/serve-command.ts";
import type { ServerEntry } from "../../../src/mcp/config/server-config.ts";
import { ServerPool } from "../../../src/mcp/pool/server-pool.ts";
import { DownstreamSession } from "../../../src/serve/downstream-session.ts";
import { ServeMethods } from "../../../src/serve/serve-methods.ts";
import { MemoryTransport } from "../../helpers/memory-transport.ts";

const entry = (name: string): ServerEntry => ({ name, scope: "user", source: "test", ok: true, config: { type: "stdio", command: name, args: [], env: {} } });

let pool: ServerPool | undefined;
afterEach(async () => {
  await pool?.closeAll();
  pool = undefined;
});

async function session(namespaced: boolean) {
  pool = new ServerPool([entry("reference")], {
    createTransport: () =>
      new MemoryTransport({
        initialize: () => ({ protocolVersion: "2025-11-25", capabilities: { tools: {}, prompts: {} }, serverInfo: { name: "memory", version: "1" } }),
        "tools/list": () => ({ tools: [{ name: "test_simple_text", inputSchema: { type: "object" } }] }),
        "tools/call": (params: any) => ({ content: [{ type: "text", text: `called ${params.name}` }] }),
        "prompts/list": () => ({ prompts: [{ name: "test_simple_prompt" }] }),
        "prompts/get": (params: any) => ({ messages: [{ role: "user", content: { type: "text", text: `got ${params.name}` } }] }),
      }),
  });
  const served = new DownstreamSession(new ServeMethods(pool, pool.connectAll(), { namespaced }), { notify: () => {} });
  return (method: string, params?: unknown) => served.answer({ method, params, signal: new AbortController().signal });
}

describe("served under their own names", () => {
  test("tools are listed and called by the server's own names", async () => {
    const ask = await session(false);
    expect(await ask("tools/list", {})).toEqual({ tools: [{ name: "test_simple_text", inputSchema: { type: "object" } }] });
    expect(await ask("tools/call", { name: "test_simple_text", arguments: {} })).toMatchObject({ content: [{ type: "text", text: "called test_simple_text" }] });
  });

  test("prompts are listed and got by their own names", async () => {
    const ask = await session(false);
    expect(await ask("prompts/list", {})).toEqual({ prompts: [{ name: "test_simple_prompt" }] });
    expect(await ask("prompts/get", { name: "test_simple_prompt" })).toMatchObject({ messages: [{ content: { text: "got test_simple_prompt" } }] });
  });

  test("the namespaced name is not served then (and is, by default)", async () => {
    await expect((await session(false))("tools/call", { name: "reference__test_simple_text", arguments: {} })).rejects.toMatchObject({
      code: -32602,
      message: "Unknown tool: reference__test_simple_text",
    });
    await pool?.closeAll();
    expect(await (await session(true))("tools/list", {})).toEqual({ tools: [{ name: "reference__test_simple_text", inputSchema: { type: "object" } }] });
  });
});

describe("--no-namespace on the command line", () => {
  test("needs exactly one served server, and says how to name it", () => {
    expect(() => checkUnnamespaced([entry("a"), entry("b")], false)).toThrow("--no-namespace serves exactly one server under its own names, but 2 would be served (a, b); name one with --server <name>");
    expect(() => checkUnnamespaced([], false)).toThrow("but none is configured");
    expect(() => checkUnnamespaced([entry("a")], false)).not.toThrow();
  });

  test("is refused with --builtin, whose tools could share a name with the server's", () => {
    expect(() => checkUnnamespaced([entry("a")], true)).toThrow("--no-namespace and --builtin do not go together");
  });
});
