/**
 * One server's connection on its own, as the keeper holds it (no pool around it): connect, events,
 * loss, restart and close with real processes; what a transport declares (restartable, a stderr
 * tail) with a transport double, since that is the contract the connection reads.
 */
import { afterEach, describe, expect, test } from "bun:test";
import { ToolRegistry } from "../../../../src/agent/tool-registry.ts";
import type { ServerEntry } from "../../../../src/mcp/config/server-config.ts";
import { AutoRestarts } from "../../../../src/mcp/pool/auto-restarts.ts";
import { ServerConnection } from "../../../../src/mcp/pool/server-connection.ts";
import type { ServerConnectionOptions } from "../../../../src/mcp/pool/server-connection-options.ts";
import type { ServerEvent } from "../../../../src/mcp/pool/server-events.ts";
import { ToolRegistrations } from "../../../../src/mcp/pool/tool-registrations.ts";
import { FakeClock } from "../../../helpers/fake-clock.ts";
import { initializeHandler, MemoryTransport } from "../../../helpers/memory-transport.ts";
import { BUN, CHAOS_SERVER, ECHO_SERVER } from "../../../helpers/paths.ts";
import { waitFor } from "../../../helpers/wait-for.ts";

const stdio = (name: string, command: string, args: string[] = []): ServerEntry => ({
  name,
  scope: "user",
  source: "test",
  ok: true,
  config: { type: "stdio", command, args, env: {} },
});

const KEY = "sk-live-0123456789abcdef";
/** An HTTP entry whose header is a secret: whatever quotes it back must not show it. */
const http: ServerEntry = { name: "remote", scope: "user", source: "test", ok: true, config: { type: "http", url: "https://mcp.example/mcp", headers: { "X-Api-Key": KEY } } };

/** A transport double that declares what a stdio transport declares: it can be started again, and has stderr. */
class RestartableTransport extends MemoryTransport {
  readonly restartable = true;
  constructor(private readonly stderr: string[]) {
    super({ initialize: initializeHandler(), "tools/list": () => ({ tools: [{ name: "t", inputSchema: { type: "object" } }] }) });
  }
  stderrTail(lines: number): string[] {
    return this.stderr.slice(-lines);
  }
}

let opened: ServerConnection[] = [];
afterEach(async () => {
  await Promise.all(opened.map((connection) => connection.close()));
  opened = [];
});

function open(entry: ServerEntry, options: ServerConnectionOptions = {}): { connection: ServerConnection; events: ServerEvent[] } {
  const connection = new ServerConnection(entry, options);
  opened.push(connection);
  const events: ServerEvent[] = [];
  connection.on("server", (event) => events.push(event));
  return { connection, events };
}

describe("ServerConnection", () => {
  test("connects a real server by itself: connected event, a working client, no registry without registrations; close ends it", async () => {
    const { connection, events } = open(stdio("echo", ECHO_SERVER));
    expect(connection.status.state).toBe("pending");
    expect(connection.client).toBeUndefined();
    await connection.connect();
    expect(events).toMatchObject([{ kind: "connected", server: "echo", after: "start", status: { state: "connected", tools: [{ name: "echo" }] } }]);
    const client = connection.client!;
    expect((await client.callTool("echo", { text: "hi" })).content).toEqual([{ type: "text", text: "hi" }]);
    expect(connection.registerTools(new ToolRegistry())).toBe(0);
    await connection.close();
    await connection.close();
    expect(client.state.status).not.toBe("connected");
    // Closed: a connect does nothing, a restart gives the status back as it is.
    await connection.connect();
    expect(await connection.restart("reconnect")).toBe(connection.status);
    expect(events).toHaveLength(1);
  }, 20_000);

  test("a failed connect of a real process is FAILED with its stderr tail (the transport's), not thrown", async () => {
    const { connection, events } = open(stdio("refuser", BUN, [CHAOS_SERVER, "--refuse-initialize", "--stderr-flood=400"]));
    await connection.connect();
    const status = connection.status as { state: string; reason: string; stderr: string[] };
    expect(status.state).toBe("failed");
    expect(status.stderr.length).toBeGreaterThan(0);
    expect(status.stderr.length).toBeLessThanOrEqual(10);
    expect(events).toMatchObject([{ kind: "not-connected", after: "start" }]);
  }, 20_000);

  test("a lost server whose transport is restartable gets its restart scheduled and comes back; its tools leave and rejoin the registrations", async () => {
    const clock = new FakeClock();
    const restarts = new AutoRestarts(clock, [500]);
    const registrations = new ToolRegistrations();
    const registry = new ToolRegistry();
    registrations.add(registry);
    const made: RestartableTransport[] = [];
    const { connection, events } = open(http, {
      clock,
      registrations,
      restarts: () => restarts,
      createTransport: () => {
        made.push(new RestartableTransport(["starting", `auth header was ${KEY}`]));
        return made.at(-1)!;
      },
    });
    await connection.connect();
    expect(registry.has("mcp__remote__t")).toBe(true);
    made[0]!.crash(`the server went away while sending ${KEY}`);
    const lost = events.find((event) => event.kind === "lost");
    expect(lost).toMatchObject({ restartInMs: 500, status: { state: "failed", lost: true } });
    // The entry's secret is masked in the reason and in the stderr tail.
    const status = connection.status as { reason: string; stderr: string[] };
    expect(status.reason).not.toContain(KEY);
    expect(status.stderr).toHaveLength(2);
    expect(status.stderr.join("\n")).not.toContain(KEY);
    expect(registry.has("mcp__remote__t")).toBe(false);
    clock.advance(500);
    await waitFor(() => events.find((event) => event.kind === "connected" && event.after === "restart"), "the restart");
    expect(registry.has("mcp__remote__t")).toBe(true);
    expect(connection.status).toMatchObject({ state: "connected", lastError: expect.stringContaining("went away") });
  });

  test("a lost server whose transport does not say it is restartable is not restarted, and has no stderr to show", async () => {
    const clock = new FakeClock();
    const transport = new MemoryTransport({ initialize: initializeHandler(), "tools/list": () => ({ tools: [] }) });
    const { connection, events } = open(http, { clock, restarts: () => new AutoRestarts(clock, [500]), createTransport: () => transport });
    await connection.connect();
    transport.crash("gone");
    expect(events.at(-1)).toMatchObject({ kind: "lost", restartInMs: undefined, status: { state: "failed", stderr: [] } });
    expect(clock.pending()).toBe(0);
  });

  test("relistTools of a connection that is not connected rejects with why", async () => {
    const { connection } = open(stdio("never", "/nonexistent/server"));
    await expect(connection.relistTools()).rejects.toThrow("MCP server 'never' is not connected");
    await connection.connect();
    expect(connection.status.state).toBe("failed");
    await expect(connection.relistTools()).rejects.toThrow("is not connected");
  });
});
