/**
 * What a client of `mcp serve` gets from one session, in both eras, in memory: the pool's servers
 * are in-memory transports (the session needs only the pool's contract); real clients and servers
 * drive the same paths in test/peers/serve.
 */
import { afterEach, describe, expect, test } from "bun:test";
import type { ServerEntry } from "../../../src/mcp/config/server-config.ts";
import { ServerPool } from "../../../src/mcp/pool/server-pool.ts";
import { DownstreamSession, MAX_PARAMS_DEPTH } from "../../../src/serve/downstream-session.ts";
import { servedNames } from "../../../src/serve/served-names.ts";
import { ServeMethods } from "../../../src/serve/serve-methods.ts";
import { unavailableServers } from "../../../src/serve/serve-stdio.ts";
import { templatePattern } from "../../../src/serve/upstream-catalog.ts";
import { initializeHandler, MemoryTransport } from "../../helpers/memory-transport.ts";
import { nestedObject } from "../../helpers/nested-object.ts";

const entry = (name: string): ServerEntry => ({ name, scope: "user", source: "test", ok: true, config: { type: "stdio", command: name, args: [], env: {} } });
const MODERN_META = { "io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": {} };

let pool: ServerPool | undefined;
afterEach(async () => {
  await pool?.closeAll();
  pool = undefined;
});

/** A session over a pool of one server `files` with one tool `echo`, whose call answers as `call` says. */
async function session(call: (params: any) => unknown = (params) => ({ content: [{ type: "text", text: params.arguments.text }] })) {
  const notified: Array<{ method: string; params: unknown }> = [];
  pool = new ServerPool([entry("files")], {
    createTransport: () =>
      new MemoryTransport({
        initialize: initializeHandler(),
        "tools/list": () => ({ tools: [{ name: "echo", inputSchema: { type: "object" } }] }),
        "tools/call": call,
      }),
  });
  const methods = new ServeMethods(pool, pool.connectAll());
  const served = new DownstreamSession(methods, { notify: (method, params) => notified.push({ method, params }) });
  const ask = (method: string, params?: unknown) => served.answer({ method, params, signal: new AbortController().signal });
  return { served, ask, notified };
}

describe("the handshake revisions", () => {
  test("initialize answers the version asked for when it is spoken, else the latest", async () => {
    const { ask } = await session();
    expect(await ask("initialize", { protocolVersion: "2025-03-26", capabilities: {} })).toMatchObject({ protocolVersion: "2025-03-26", serverInfo: { name: "cat-code" } });
    expect(await ask("initialize", { protocolVersion: "1999-01-01", capabilities: {} })).toMatchObject({ protocolVersion: "2025-11-25" });
  });

  test("a malformed initialize is an invalid-params error naming the field", async () => {
    const { ask } = await session();
    await expect(ask("initialize", { capabilities: {} })).rejects.toMatchObject({ code: -32602, message: expect.stringContaining("protocolVersion") });
  });

  test("tools are served as <server>__<tool>, and a call reaches the tool by its own name", async () => {
    const { ask } = await session();
    expect(await ask("tools/list", {})).toEqual({ tools: [{ name: "files__echo", inputSchema: { type: "object" } }] });
    expect(await ask("tools/call", { name: "files__echo", arguments: { text: "hi" } })).toMatchObject({ content: [{ type: "text", text: "hi" }] });
  });

  test("a call that fails upstream is that call's error result, not a JSON-RPC error", async () => {
    const { ask } = await session(() => {
      throw new Error("disk on fire");
    });
    const result = (await ask("tools/call", { name: "files__echo", arguments: {} })) as { isError: boolean; content: Array<{ text: string }> };
    expect(result.isError).toBe(true);
    expect(result.content[0]!.text).toContain("MCP server 'files' failed on tool 'echo'");
  });

  test("params nested deeper than the bound are refused before anything reads them", async () => {
    const { ask } = await session();
    await expect(ask("tools/call", { name: "files__echo", arguments: nestedObject(MAX_PARAMS_DEPTH + 5) })).rejects.toMatchObject({ code: -32602 });
  });

  test("server log messages reach a client only once it finished its handshake and asked for their level", async () => {
    const { served, ask, notified } = await session();
    const entry = { server: "files", level: "warning" as const, data: "careful" };
    served.forwardLog(entry);
    await ask("logging/setLevel", { level: "info" });
    served.heard({ jsonrpc: "2.0", method: "notifications/initialized" });
    served.forwardLog(entry);
    served.forwardLog({ ...entry, level: "debug" });
    expect(notified).toEqual([{ method: "notifications/message", params: { level: "warning", logger: "files", data: "careful" } }]);
  });
});

describe("2026-07-28 requests", () => {
  test("server/discover lists the modern version and the handshake ones", async () => {
    const { ask } = await session();
    const discover = (await ask("server/discover", { _meta: MODERN_META })) as Record<string, unknown>;
    expect(discover.supportedVersions).toEqual(["2026-07-28", "2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"]);
    expect(discover).toMatchObject({ resultType: "complete", _meta: { "io.modelcontextprotocol/serverInfo": { name: "cat-code" } } });
  });

  test("a call with _meta answers with resultType and who answered; an unknown version is -32022 listing ours", async () => {
    const { ask } = await session();
    expect(await ask("tools/call", { name: "files__echo", arguments: { text: "m" }, _meta: MODERN_META })).toMatchObject({
      content: [{ type: "text", text: "m" }],
      resultType: "complete",
    });
    await expect(ask("tools/list", { _meta: { ...MODERN_META, "io.modelcontextprotocol/protocolVersion": "2099-01-01" } })).rejects.toMatchObject({
      code: -32022,
      data: { requested: "2099-01-01" },
    });
  });

  test("a request whose _meta declares no client capabilities is -32602; methods the revision removed are -32601", async () => {
    const { ask } = await session();
    await expect(ask("tools/list", { _meta: { "io.modelcontextprotocol/protocolVersion": "2026-07-28" } })).rejects.toMatchObject({ code: -32602 });
    for (const method of ["ping", "initialize", "logging/setLevel"]) await expect(ask(method, { _meta: MODERN_META })).rejects.toMatchObject({ code: -32601 });
  });
});

describe("names and routing", () => {
  test("two names that sanitize alike are both served, told apart by a stable suffix, with a warning", () => {
    const warnings: string[] = [];
    const named = servedNames([{ server: "a", items: [{ name: "x.y" }, { name: "x_y" }] }], (line) => warnings.push(line));
    expect(named.map((item) => item.name)).toEqual(["a__x_y", expect.stringMatching(/^a__x_y_[0-9a-f]{8}$/)]);
    expect(warnings).toHaveLength(1);
  });

  test("a URI template matches the URIs it expands to, and nothing else", () => {
    const pattern = templatePattern("fixture://greeting/{name}{?lang}");
    expect(pattern.test("fixture://greeting/Ada?lang=fr")).toBe(true);
    expect(pattern.test("other://greeting/Ada")).toBe(false);
  });

  test("the client is told which servers need a sign-in, with the command that gives it", () => {
    const reason = "'linear' (https://mcp.linear.app/mcp) needs you to sign in: run cat-code mcp login linear";
    const text = unavailableServers([{ name: "linear", scope: "user", source: "x", description: "", state: "needs-auth", reason }]);
    expect(text).toContain(`- linear: ${reason}`);
    expect(text).toContain("as <server>__<tool>");
    // One server under --no-namespace: its tools keep their own names, and the text does not promise prefixes.
    const bare = unavailableServers([{ name: "linear", scope: "user", source: "x", description: "", state: "needs-auth", reason }], false);
    expect(bare).toContain("under their own names");
    expect(bare).not.toContain("<server>__<tool>");
    expect(unavailableServers([])).toBeUndefined();
  });
});
