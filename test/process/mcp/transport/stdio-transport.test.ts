import { afterEach, describe, expect, test } from "bun:test";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { McpError } from "../../../../src/mcp/mcp-error.ts";
import { ErrorCode } from "../../../../src/mcp/protocol.ts";
import { EXIT_AFTER_STDOUT_MS, StdioTransport } from "../../../../src/mcp/transport/stdio-transport.ts";
import { FakeClock } from "../../../helpers/fake-clock.ts";
import { BUN, CHAOS_SERVER, ECHO_SERVER, tempDir, uniqueSeconds } from "../../../helpers/paths.ts";
import { findProcesses, killAll, waitForNoProcesses } from "../../../helpers/processes.ts";
import { rpc } from "../../../helpers/rpc.ts";
import { waitFor } from "../../../helpers/wait-for.ts";

const INITIALIZE = { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "test", version: "0" } };
const open: StdioTransport[] = [];

function chaos(...flags: string[]): StdioTransport {
  const transport = new StdioTransport({ command: BUN, args: [CHAOS_SERVER, ...flags], env: process.env as Record<string, string> });
  open.push(transport);
  return transport;
}

async function handshake(transport: StdioTransport): Promise<void> {
  await transport.start();
  await rpc(transport).request("initialize", INITIALIZE);
  await rpc(transport).notify("notifications/initialized");
}

afterEach(async () => {
  await Promise.all(open.splice(0).map((t) => t.close()));
});

describe("StdioTransport", () => {
  test("talks to the bash echo server: handshake, list, call, with UTF-8 intact", async () => {
    const transport = new StdioTransport({ command: ECHO_SERVER, args: [], env: process.env as Record<string, string> });
    open.push(transport);
    await transport.start();
    const init = (await rpc(transport).request("initialize", INITIALIZE)) as { serverInfo: { name: string } };
    expect(init.serverInfo.name).toBe("echo-server.sh");
    const list = (await rpc(transport).request("tools/list", {})) as { tools: { name: string }[] };
    expect(list.tools.map((t) => t.name)).toEqual(["echo"]);
    const call = await rpc(transport).request("tools/call", { name: "echo", arguments: { text: "你好" } });
    expect(call).toEqual({ content: [{ type: "text", text: "你好" }] });
  });

  test("a command that does not exist fails start with a message naming it", async () => {
    const transport = new StdioTransport({ command: "/no/such/server-binary", args: [], env: {} });
    await expect(transport.start()).rejects.toThrow("command not found: '/no/such/server-binary'");
  });

  test("a crash mid-call fails the pending call at once with the exit code and the stderr tail", async () => {
    const transport = chaos("--crash=on-call");
    await handshake(transport);
    const started = Date.now();
    const error = (await rpc(transport).request("tools/call", { name: "echo", arguments: { text: "x" } }).catch((e: unknown) => e)) as McpError;
    expect(error).toBeInstanceOf(McpError);
    expect(error.code).toBe(ErrorCode.ConnectionClosed);
    expect(error.message).toContain("exited with code 3");
    expect(error.message).toContain("chaos: crashing on call as asked");
    expect(Date.now() - started).toBeLessThan(5000);
    // Later requests fail the same way instead of hanging.
    await expect(rpc(transport).request("ping")).rejects.toThrow("exited with code 3");
  });

  test("lines that are not JSON-RPC are skipped and the connection lives on", async () => {
    const transport = chaos("--garbage");
    await handshake(transport);
    const call = await rpc(transport).request("tools/call", { name: "echo", arguments: { text: "still here" } });
    expect(call).toEqual({ content: [{ type: "text", text: "still here" }], isError: false });
  });

  test("messages split across writes, CRLF endings and a BOM on every line are read whole", async () => {
    const transport = chaos("--split-writes", "--crlf", "--bom");
    await handshake(transport);
    const call = await rpc(transport).request("tools/call", { name: "echo", arguments: { text: "ünïcødé ✓" } });
    expect(call).toEqual({ content: [{ type: "text", text: "ünïcødé ✓" }], isError: false });
  });

  test("5 MB on stderr before the first answer does not block, and the tail is kept", async () => {
    const transport = chaos("--stderr-flood=5000000");
    await handshake(transport);
    await rpc(transport).request("ping");
    // The server wrote its last stderr line before its first answer; the reader takes it in on its own time.
    await waitFor(() => transport.stderr.tail(1)[0] === "stderr flood done", "the last stderr line");
  });

  test("answers to ids never asked, without an id, or to a finished id are dropped", async () => {
    const transport = chaos("--unknown-id", "--omit-id", "--duplicate-id");
    await handshake(transport);
    const first = await rpc(transport).request("tools/call", { name: "echo", arguments: { text: "one" } });
    const second = await rpc(transport).request("tools/call", { name: "echo", arguments: { text: "two" } });
    expect(first).toEqual({ content: [{ type: "text", text: "one" }], isError: false });
    expect(second).toEqual({ content: [{ type: "text", text: "two" }], isError: false });
  });

  test("requests from the server are answered: ping with {}, everything else with -32601", async () => {
    const transport = chaos("--server-requests");
    rpc(transport).onRequest = (request) => {
      if (request.method === "ping") return {};
      throw new McpError(ErrorCode.MethodNotFound, `Method not found: ${request.method}`);
    };
    await handshake(transport);
    const call = (await rpc(transport).request("tools/call", { name: "echo", arguments: { text: "hi" } })) as {
      content: { text: string }[];
    };
    expect(call.content[0]?.text).toBe(
      "hi | ping:ok {} sampling/createMessage:error -32601 roots/list:error -32601 elicitation/create:error -32601",
    );
  });

  test("without a handler, server requests are refused with -32601, never left unanswered", async () => {
    const transport = chaos("--server-requests");
    await handshake(transport);
    const call = (await rpc(transport).request("tools/call", { name: "echo", arguments: { text: "hi" } })) as {
      content: { text: string }[];
    };
    expect(call.content[0]?.text).toContain("ping:error -32601");
  });

  test("an aborted request rejects at once and the server receives notifications/cancelled", async () => {
    const record = join(tempDir(), "received.ndjson");
    const transport = chaos("--hang=call", `--record=${record}`);
    await handshake(transport);
    const controller = new AbortController();
    const pending = rpc(transport).request("tools/call", { name: "echo", arguments: { text: "x" } }, { signal: controller.signal });
    const received = () => readFileSync(record, "utf8").trim().split("\n").map((line) => JSON.parse(line));
    const call = await waitFor(() => received().find((m) => m.method === "tools/call"), "the server to receive the call");
    controller.abort(new Error("gave up"));
    await expect(pending).rejects.toThrow("gave up");
    const cancelled = await waitFor(() => received().find((m) => m.method === "notifications/cancelled"), "notifications/cancelled");
    expect(cancelled.params).toEqual({ requestId: call.id, reason: "gave up" });
  });

  test("a server that writes without end and no newline is cut off, not held in memory forever", async () => {
    const transport = new StdioTransport({ command: "sh", args: ["-c", "exec cat /dev/zero"], env: process.env as Record<string, string> });
    open.push(transport);
    await transport.start();
    const error = (await rpc(transport).request("ping").catch((e: unknown) => e)) as Error;
    expect(error.message).toBe("the server wrote more than 256 MB without a newline; the connection was closed");
  });

  test("a 20 MB result arrives whole", async () => {
    const transport = chaos();
    await handshake(transport);
    const call = (await rpc(transport).request("tools/call", { name: "big", arguments: { bytes: 20_000_000 } })) as {
      content: { text: string }[];
    };
    expect(call.content[0]?.text.length).toBe(20_000_000);
  });

  test("500 concurrent calls answered in random order each get their own answer", async () => {
    const transport = chaos("--shuffle=50");
    await handshake(transport);
    const calls = Array.from({ length: 500 }, (_, i) =>
      rpc(transport).request("tools/call", { name: "echo", arguments: { text: `call ${i}` } }),
    );
    const results = (await Promise.all(calls)) as { content: { text: string }[] }[];
    results.forEach((result, i) => expect(result.content[0]?.text).toBe(`call ${i}`));
  });

  test("close ends the whole process group, grandchildren included", async () => {
    const marker = uniqueSeconds();
    const transport = new StdioTransport({
      command: "sh",
      args: ["-c", `${BUN} ${CHAOS_SERVER} --grandchild=${marker}; true`],
      env: process.env as Record<string, string>,
    });
    open.push(transport);
    await handshake(transport);
    expect((await findProcesses(`sleep ${marker}`)).length).toBe(1);
    await transport.close();
    const left = await waitForNoProcesses(marker);
    killAll(left);
    expect(left).toEqual([]);
  });

  test("a server that exits when stdin closes is not waited on for the grace period", async () => {
    const signals = join(tempDir(), "signals");
    const transport = new StdioTransport(
      { command: BUN, args: [CHAOS_SERVER, `--record-signal=${signals}`], env: process.env as Record<string, string> },
      { closeGraceMs: 20_000 },
    );
    await handshake(transport);
    const started = performance.now();
    await transport.close();
    // Far below the grace period, and no signal was needed.
    expect(performance.now() - started).toBeLessThan(10_000);
    expect(existsSync(signals)).toBe(false);
  });

  test("a server that asks something after its stdin closed is ended at once: the answer can never come", async () => {
    const signals = join(tempDir(), "signals");
    const transport = new StdioTransport(
      { command: BUN, args: [CHAOS_SERVER, "--ask-on-close", `--record-signal=${signals}`], env: process.env as Record<string, string> },
      { closeGraceMs: 30_000 },
    );
    open.push(transport);
    await handshake(transport);
    const started = performance.now();
    await transport.close();
    // Without the rule it would wait out the 30 s grace; the bound only catches that.
    expect(performance.now() - started).toBeLessThan(15_000);
    expect(readFileSync(signals, "utf8")).toContain("SIGTERM");
  });

  test("a server that ignores stdin closing gets SIGTERM once the grace period is over, not before", async () => {
    const signals = join(tempDir(), "signals");
    const graceMs = 300;
    const transport = new StdioTransport(
      { command: BUN, args: [CHAOS_SERVER, "--linger", `--record-signal=${signals}`], env: process.env as Record<string, string> },
      { closeGraceMs: graceMs },
    );
    open.push(transport);
    await handshake(transport);
    const started = performance.now();
    await transport.close();
    const elapsed = performance.now() - started;
    // SIGTERM, which it handled by exiting: no SIGKILL was needed after the second grace period.
    expect(readFileSync(signals, "utf8")).toBe("SIGTERM\n");
    // Timers may fire a hair early by the clock's rounding; the upper bound only catches a hang.
    expect(elapsed).toBeGreaterThanOrEqual(graceMs - 1);
    expect(elapsed).toBeLessThan(graceMs + 10_000);
  });

  test("a server that closes its stdout and lives on fails the pending request once the short wait for its exit is over, not at the timeout", async () => {
    const clock = new FakeClock();
    const transport = new StdioTransport({ command: BUN, args: [CHAOS_SERVER, "--unknown-method=close-stdout"], env: process.env as Record<string, string> }, { clock });
    open.push(transport);
    await handshake(transport);
    const pending = rpc(transport).request("server/discover", {}).catch((e: unknown) => e);
    // The only wait is the one for an exit, on the transport's clock: no request timeout is involved.
    await waitFor(() => clock.pending() > 0, "the wait for the server's exit after its stdout closed");
    clock.advance(EXIT_AFTER_STDOUT_MS);
    const error = (await pending) as McpError;
    expect(error.code).toBe(ErrorCode.ConnectionClosed);
    expect(error.message).toBe("the server closed its stdout (it is still running), so it can answer nothing more; its last stderr lines:\nchaos: unknown method server/discover; closing stdout");
    await expect(rpc(transport).request("ping")).rejects.toThrow("closed its stdout");
  });

  test("a server that exits right after closing stdout is reported by its exit, not by the closed stdout", async () => {
    const transport = new StdioTransport({ command: BUN, args: [CHAOS_SERVER, "--unknown-method=exit"], env: process.env as Record<string, string> }, { clock: new FakeClock() });
    open.push(transport);
    await handshake(transport);
    const error = (await rpc(transport).request("server/discover", {}).catch((e: unknown) => e)) as McpError;
    expect(error.message).toBe("the server exited with code 1; its last stderr lines:\nchaos: unknown method server/discover; exiting");
  });

  test("close is safe to call twice and fails pending requests", async () => {
    const transport = chaos("--hang=call");
    await handshake(transport);
    const pending = rpc(transport).request("tools/call", { name: "echo", arguments: { text: "x" } }).catch((e: Error) => e);
    await Promise.all([transport.close(), transport.close()]);
    expect(((await pending) as Error).message).toBe("the connection was closed");
  });
});
