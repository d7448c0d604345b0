import { afterEach, expect, test } from "bun:test";
import { ToolRegistry } from "../../../../src/agent/tool-registry.ts";
import type { ServerEntry } from "../../../../src/mcp/config/server-config.ts";
import { ServerPool, type ServerEvent, type ServerPoolOptions } from "../../../../src/mcp/pool/server-pool.ts";
import { FakeClock } from "../../../helpers/fake-clock.ts";
import { BUN, CHAOS_SERVER, ECHO_SERVER, REPO } from "../../../helpers/paths.ts";
import type { HttpTransport } from "../../../../src/mcp/transport/http-transport.ts";
import { waitFor } from "../../../helpers/wait-for.ts";
import { spawnServer, type ServerProcess } from "../../../helpers/http-server-process.ts";

const stdio = (name: string, command: string, args: string[] = []): ServerEntry => ({
  name,
  scope: "user",
  source: "test",
  ok: true,
  config: { type: "stdio", command, args, env: {} },
});
const http = (name: string, url: string): ServerEntry => ({ name, scope: "user", source: "test", ok: true, config: { type: "http", url, headers: {} } });
const crashy = () => stdio("crashy", BUN, [CHAOS_SERVER, "--crash-tool"]);

let pool: ServerPool | undefined;
let server: ServerProcess | undefined;
afterEach(async () => {
  await pool?.closeAll();
  pool = undefined;
  await server?.stop();
  server = undefined;
});

/** A pool, a registry it registers into before connecting (as the agent session does), and every event it told. */
function start(entries: ServerEntry[], options: ServerPoolOptions = {}) {
  pool = new ServerPool(entries, options);
  const registry = new ToolRegistry();
  const events: ServerEvent[] = [];
  pool.on("server", (event) => events.push(event));
  pool.registerInto(registry);
  const connected = pool.connectAll();
  const mcpTools = () => registry.list().map((tool) => tool.name).filter((name) => name.startsWith("mcp__"));
  return { pool, registry, events, connected, mcpTools };
}

const stateOf = (name: string) => pool!.status().find((status) => status.name === name)?.state;

test("a slow server (one whose handshake never ends) does not hold back a fast one: the fast one's tools are usable the moment it is ready", async () => {
  // A handshake that never ends rather than a 5 s one: on a busy machine 5 s can pass before the checks.
  const { registry, events, connected } = start([stdio("slow", BUN, [CHAOS_SERVER, "--hang=initialize"]), stdio("fast", ECHO_SERVER)]);
  await waitFor(() => events.find((event) => event.kind === "connected" && event.server === "fast"), "the fast server's connected event");
  expect(stateOf("slow")).toBe("pending");
  expect(registry.has("mcp__slow__echo")).toBe(false);
  const result = await registry.get("mcp__fast__echo")?.execute({ text: "at once" });
  expect(result?.content).toBe("at once");
  // Still connecting: nothing the fast server did waited for it.
  expect(stateOf("slow")).toBe("pending");
  void connected;
}, 20_000);

test("a stdio server that crashes is FAILED at once with its exit code and stderr tail, and its tools leave the registry", async () => {
  const { registry, events, connected, mcpTools } = start([crashy(), stdio("echo", ECHO_SERVER)]);
  await connected;
  expect(mcpTools()).toContain("mcp__crashy__crash");
  const result = await registry.get("mcp__crashy__crash")!.execute({ code: 7, stderr: "boom: out of cheese" });
  expect(result.isError).toBe(true);
  expect(result.content).toContain("the server exited with code 7");
  expect(result.content).toContain("boom: out of cheese");
  const lost = await waitFor(() => events.find((event) => event.kind === "lost"), "the lost event");
  expect(lost).toMatchObject({ server: "crashy", restartInMs: undefined, status: { state: "failed", lost: true } });
  const status = pool!.status().find((s) => s.name === "crashy") as { state: string; reason: string };
  expect(status.state).toBe("failed");
  expect(status.reason).toContain("exited with code 7");
  expect(status.reason).toContain("boom: out of cheese");
  expect(mcpTools()).toEqual(["mcp__echo__echo"]);
  expect(pool!.client("crashy")).toBeUndefined();
  // The other server never noticed.
  expect((await registry.get("mcp__echo__echo")!.execute({ text: "fine" })).content).toBe("fine");
}, 20_000);

test("a crashed stdio server is restarted once after the backoff (a fake clock), says so, and stays FAILED after a second crash until reconnect", async () => {
  const clock = new FakeClock();
  const { registry, events, connected, mcpTools } = start([crashy()], { clock, restartCrashed: { delaysMs: [1000] } });
  await connected;
  await registry.get("mcp__crashy__crash")!.execute({ code: 5 });
  const lost = await waitFor(() => events.find((event) => event.kind === "lost"), "the lost event");
  expect(lost).toMatchObject({ restartInMs: 1000 });
  expect(mcpTools()).toEqual([]);

  clock.advance(999);
  expect(stateOf("crashy")).toBe("failed");
  expect(events.filter((event) => event.kind === "connected")).toHaveLength(1);
  clock.advance(1);
  const restarted = await waitFor(() => events.find((event) => event.kind === "connected" && event.after === "restart"), "the restart");
  expect(restarted.status).toMatchObject({ state: "connected", lastError: expect.stringContaining("exited with code 5") });
  expect(mcpTools()).toContain("mcp__crashy__crash");

  // The second crash gets no automatic restart: the server stays FAILED however long one waits.
  await registry.get("mcp__crashy__crash")!.execute({ code: 6 });
  const second = await waitFor(() => events.filter((event) => event.kind === "lost")[1], "the second lost event");
  expect(second).toMatchObject({ restartInMs: undefined });
  clock.advance(60_000);
  expect(stateOf("crashy")).toBe("failed");
  expect(clock.pending()).toBe(0);

  // The user's reconnect brings it back and starts the count again.
  expect(await pool!.reconnect("crashy")).toMatchObject({ state: "connected" });
  expect(mcpTools()).toContain("mcp__crashy__crash");
  await registry.get("mcp__crashy__crash")!.execute({ code: 8 });
  const third = await waitFor(() => events.filter((event) => event.kind === "lost")[2], "the third lost event");
  expect(third).toMatchObject({ restartInMs: 1000 });
}, 30_000);

test("an HTTP server that goes away is FAILED on the next call that cannot reach it, and its tools leave", async () => {
  server = await spawnServer([BUN, CHAOS_SERVER, "--http"], { ready: /chaos listening on port (\d+)/, path: "/mcp" });
  const { registry, events, connected, mcpTools } = start([http("remote", server.url), stdio("echo", ECHO_SERVER)], { restartCrashed: {} });
  await connected;
  expect(mcpTools()).toContain("mcp__remote__echo");
  await server.stop();
  const result = await registry.get("mcp__remote__echo")!.execute({ text: "anyone?" });
  expect(result).toMatchObject({ isError: true, content: expect.stringContaining("cannot reach http://127.0.0.1:") });
  const lost = await waitFor(() => events.find((event) => event.kind === "lost"), "the lost event");
  // Not a stdio crash: there is no process to restart.
  expect(lost).toMatchObject({ server: "remote", restartInMs: undefined, status: { state: "failed", reason: expect.stringContaining("cannot reach") } });
  expect(mcpTools()).toEqual(["mcp__echo__echo"]);
}, 20_000);

test("an HTTP server that holds a notification stream and goes away is FAILED without any call finding out", async () => {
  const sdkServer = `${REPO}/fixtures/http/sdk-http-server.ts`;
  server = await spawnServer([BUN, sdkServer, "--mode", "sse"], { ready: /PORT (\d+)/, path: "/mcp" });
  const { events, connected, mcpTools } = start([http("remote", server.url)]);
  await connected;
  const transport = pool!.client("remote")!.transport as HttpTransport;
  await waitFor(() => transport.notificationStreamState === "open", "the standalone GET stream to open");
  expect(mcpTools().length).toBeGreaterThan(0);
  await server.stop();
  const lost = await waitFor(() => events.find((event) => event.kind === "lost"), "the lost event");
  expect(lost).toMatchObject({ server: "remote", restartInMs: undefined, status: { state: "failed", reason: expect.stringContaining("cannot reach http://127.0.0.1:") } });
  expect(mcpTools()).toEqual([]);
}, 20_000);

test("reconnectFailed restarts every FAILED server and leaves the others alone", async () => {
  const { registry, connected, mcpTools } = start([crashy(), stdio("echo", ECHO_SERVER)]);
  await connected;
  const echoClient = pool!.client("echo");
  await registry.get("mcp__crashy__crash")!.execute({});
  await waitFor(() => stateOf("crashy") === "failed", "crashy FAILED");
  const statuses = await pool!.reconnectFailed();
  expect(statuses.map((status) => [status.name, status.state])).toEqual([["crashy", "connected"]]);
  expect(pool!.client("echo")).toBe(echoClient);
  expect(mcpTools().sort()).toEqual(["mcp__crashy__big", "mcp__crashy__crash", "mcp__crashy__echo", "mcp__crashy__sleep", "mcp__echo__echo"]);
}, 20_000);

test("an idle stdio server killed from outside is FAILED at once, without any call finding out", async () => {
  const { events, connected, mcpTools } = start([stdio("echo", ECHO_SERVER)]);
  await connected;
  const pid = (pool!.client("echo")!.transport as { pid?: number }).pid!;
  process.kill(pid, "SIGKILL");
  const lost = await waitFor(() => events.find((event) => event.kind === "lost"), "the lost event");
  expect(lost.status).toMatchObject({ state: "failed", reason: expect.stringContaining("killed by SIGKILL") });
  expect(mcpTools()).toEqual([]);
}, 20_000);
