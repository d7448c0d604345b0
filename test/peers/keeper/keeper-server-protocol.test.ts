import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Subprocess } from "bun";
import type { KeeperPaths } from "../../../src/keeper/keeper-paths.ts";
import type { ServerEntry } from "../../../src/mcp/config/server-config.ts";
import { ErrorCode } from "../../../src/mcp/protocol.ts";
import { BUN, CHAOS_SERVER, EVERYTHING_SERVER, ECHO_SERVER, MODERN_SERVER, uniqueSeconds } from "../../helpers/paths.ts";
import { findProcesses, killAll } from "../../helpers/processes.ts";
import { waitFor } from "../../helpers/wait-for.ts";
import { endKeeperProcess, startKeeperProcess, stdioServer, TestKeeperClient } from "../../helpers/keeper-test-client.ts";

/**
 * The protocol end to end: a real keeper process, real servers (the reference server-everything,
 * the chaos fixture, a 401 HTTP server), the socket as a command would use it.
 */
let paths: KeeperPaths;
let keeper: Subprocess;
const tags: string[] = [];

beforeAll(async () => {
  const running = await startKeeperProcess();
  paths = running.paths;
  keeper = running.process;
});

afterAll(async () => {
  await endKeeperProcess(keeper);
  for (const tag of tags) killAll(await findProcesses(tag));
});

function tag(): string {
  const value = uniqueSeconds();
  tags.push(value);
  return value;
}

const roots = [process.cwd()];

describe("server-everything through the keeper", () => {
  const everything = () => stdioServer("everything", "node", [EVERYTHING_SERVER, "stdio"]);

  test("progress of a call arrives as progress events of that call", async () => {
    const client = await TestKeeperClient.greeted(paths);
    expect(await client.request({ op: "connect", servers: [everything()], roots })).toMatchObject({ ok: { statuses: [{ state: "connected", era: "legacy" }] } });
    const id = client.upcomingId;
    const answer = await client.request({ op: "call", server: "everything", tool: "trigger-long-running-operation", arguments: { duration: 0.2, steps: 2 }, elicitation: "decline" });
    expect(answer).toMatchObject({ id, ok: { result: { content: [{ type: "text", text: expect.stringContaining("Steps: 2") }] } } });
    expect(client.events(id)).toEqual([
      { id, event: "progress", progress: { progress: 1, total: 2 } },
      { id, event: "progress", progress: { progress: 2, total: 2 } },
    ]);
    client.close();
  });

  test("a question from the server is declined with a note event when the call says decline", async () => {
    const client = await TestKeeperClient.greeted(paths);
    await client.request({ op: "connect", servers: [everything()], roots });
    const id = client.upcomingId;
    const answer = await client.request({ op: "call", server: "everything", tool: "trigger-elicitation-request", arguments: {}, elicitation: "decline" });
    expect(JSON.stringify(answer)).toContain("User declined");
    const notes = client.events(id).filter((event) => event.event === "note");
    expect(notes).toEqual([{ id, event: "note", line: expect.stringMatching(/^cat-code: everything asked for input .* — declined: run it in the REPL to answer$/) }]);
    client.close();
  });
});

test("two commands asking one warm server at once: each call's question is answered its own way", async () => {
  const modern = stdioServer("modern", BUN, [MODERN_SERVER, "--stdio", tag()]);
  const [declining, accepting] = await Promise.all([TestKeeperClient.greeted(paths), TestKeeperClient.greeted(paths)]);
  await declining.request({ op: "connect", servers: [modern], roots });
  await accepting.request({ op: "connect", servers: [modern], roots });
  const [declined, accepted] = await Promise.all([
    declining.request({ op: "call", server: "modern", tool: "ask_name", arguments: {}, elicitation: "decline" }),
    accepting.request({ op: "call", server: "modern", tool: "ask_name", arguments: {}, elicitation: "accept-defaults" }),
  ]);
  expect(declined).toMatchObject({ ok: { result: { content: [{ text: "You declined to give your name." }] } } });
  expect(declining.messages.filter((m) => "event" in m && m.event === "note")).toHaveLength(1);
  expect(accepted).toMatchObject({ ok: { result: { content: [{ text: expect.stringMatching(/^Hello Ada/) }] } } });
  expect(accepting.messages.filter((m) => "event" in m && m.event === "note")).toEqual([]);
  declining.close();
  accepting.close();
});

describe("the chaos fixture through the keeper", () => {
  const chaos = (flags: string[], extra = {}) => stdioServer("chaos", BUN, [CHAOS_SERVER, ...flags], extra);

  test("a server's log lines arrive as log events of the connect and of the call", async () => {
    const client = await TestKeeperClient.greeted(paths);
    const connectId = client.upcomingId;
    await client.request({ op: "connect", servers: [chaos(["--notifications", tag()])], roots });
    expect(client.events(connectId)).toContainEqual({ id: connectId, event: "log", entry: { server: "chaos", level: "info", data: "hello" } });
    const callId = client.upcomingId;
    await client.request({ op: "call", server: "chaos", tool: "echo", arguments: { text: "hi" }, elicitation: "decline" });
    expect(client.events(callId)).toContainEqual({ id: callId, event: "log", entry: { server: "chaos", level: "info", data: "hello" } });
    client.close();
  });

  test("a tool left out is warned of to every command that connects, as its own connect would", async () => {
    const server = chaos(["--untyped-tool", tag()]);
    const warning = `MCP tool 'untyped' of server 'chaos' is left out: its inputSchema has no "type": "object" at the root, which the model API requires; the server's other tools work`;
    for (const round of [1, 2]) {
      const client = await TestKeeperClient.greeted(paths);
      const id = client.upcomingId;
      await client.request({ op: "connect", servers: [server], roots });
      expect([round, client.events(id).filter((event) => event.event === "warning")]).toEqual([round, [{ id, event: "warning", message: warning }]]);
      client.close();
    }
  });

  test("a server's error keeps its code: a timed-out call is RequestTimeout, not an error of the keeper", async () => {
    const client = await TestKeeperClient.greeted(paths);
    // Long enough for the handshake on a loaded machine (the timeout bounds it too), short for the hung call.
    await client.request({ op: "connect", servers: [chaos(["--hang=call", tag()], { timeout: 2000 })], roots });
    const answer = await client.request({ op: "call", server: "chaos", tool: "echo", arguments: { text: "hi" }, elicitation: "decline" });
    expect(answer).toMatchObject({ error: { code: ErrorCode.RequestTimeout, message: expect.stringContaining("timed out") } });
    expect(answer).not.toHaveProperty("error.keeper");
    client.close();
  });

  test("a server that crashed between two calls is started anew at the next connect", async () => {
    const marker = tag();
    const server = chaos(["--crash-after-calls=2", marker]);
    const client = await TestKeeperClient.greeted(paths);
    await client.request({ op: "connect", servers: [server], roots });
    const [first] = await findProcesses(marker);
    expect(await client.request({ op: "call", server: "chaos", tool: "echo", arguments: { text: "1" }, elicitation: "decline" })).toMatchObject({ ok: {} });
    expect(await client.request({ op: "call", server: "chaos", tool: "echo", arguments: { text: "2" }, elicitation: "decline" })).toMatchObject({
      error: { code: ErrorCode.ConnectionClosed },
    });
    await waitFor(async () => !(await findProcesses(marker)).includes(first!), "the crashed server to be gone");

    const next = await TestKeeperClient.greeted(paths);
    expect(await next.request({ op: "connect", servers: [server], roots })).toMatchObject({ ok: { statuses: [{ state: "connected" }] } });
    expect(await next.request({ op: "call", server: "chaos", tool: "echo", arguments: { text: "3" }, elicitation: "decline" })).toMatchObject({
      ok: { result: { content: [{ text: "3" }] } },
    });
    const pids = await findProcesses(marker);
    expect(pids).toHaveLength(1);
    expect(pids).not.toContain(first);
    client.close();
    next.close();
  });

  test("a changed entry gets its own server: other args, other env, other roots", async () => {
    const marker = tag();
    const client = await TestKeeperClient.greeted(paths);
    const base = stdioServer("echo", ECHO_SERVER, [marker]);
    const otherEnv = { ...base, launch: { ...base.launch, env: { ...base.launch.env, EXTRA: "1" } } };
    const otherArgs = stdioServer("echo", ECHO_SERVER, [marker, "x"]);
    for (const [server, serverRoots] of [
      [base, roots],
      [base, roots],
      [otherEnv, roots],
      [otherArgs, roots],
      [base, [...roots, "/tmp"]],
    ] as const) {
      expect(await client.request({ op: "connect", servers: [server], roots: [...serverRoots] })).toMatchObject({ ok: { statuses: [{ state: "connected" }] } });
    }
    // The second connect of `base` reused the first: four servers for five connects.
    expect(await findProcesses(marker)).toHaveLength(4);
    const status = await client.request({ op: "status" });
    const fingerprints = "ok" in status && "connections" in status.ok ? status.ok.connections.filter((c) => c.name === "echo").map((c) => c.fingerprint) : [];
    expect(new Set(fingerprints).size).toBe(4);
    expect(fingerprints.every((f) => /^[0-9a-f]{12}$/.test(f))).toBe(true);
    client.close();
  });
});

test("an HTTP server that wants a sign-in is NEEDS-AUTH and is not kept", async () => {
  using server = Bun.serve({
    port: 0,
    hostname: "127.0.0.1",
    fetch: () => new Response("unauthorized", { status: 401, headers: { "WWW-Authenticate": 'Bearer realm="mcp", error="invalid_token"' } }),
  });
  const entry: ServerEntry = { name: "locked", scope: "user", source: "/test/mcp.json", ok: true, config: { type: "http", url: `http://127.0.0.1:${server.port}/mcp`, headers: {} } };
  const client = await TestKeeperClient.greeted(paths);
  const answer = await client.request({ op: "connect", servers: [{ entry, launch: { env: {}, cwd: process.cwd() } }], roots });
  expect(answer).toMatchObject({ ok: { statuses: [{ name: "locked", state: "needs-auth", reason: expect.stringContaining("cat-code mcp login locked") }] } });
  const status = await client.request({ op: "status" });
  expect("ok" in status && "connections" in status.ok && status.ok.connections.some((c) => c.name === "locked")).toBe(false);
  client.close();
});
