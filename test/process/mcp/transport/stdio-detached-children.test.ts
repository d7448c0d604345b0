/**
 * A server's child that leaves the server's process group with `setsid` cannot be reached through
 * the group. On Linux, close() finds it through /proc while the server still lives and ends it too.
 */
import { afterEach, describe, expect, test } from "bun:test";
import { join } from "node:path";
import { StdioTransport } from "../../../../src/mcp/transport/stdio-transport.ts";
import { readProcess } from "../../../../src/system/process-table.ts";
import { ECHO_SERVER, REPO, uniqueSeconds } from "../../../helpers/paths.ts";
import { findProcesses, killAll, waitForNoProcesses } from "../../../helpers/processes.ts";
import { rpc } from "../../../helpers/rpc.ts";
import { waitFor } from "../../../helpers/wait-for.ts";

const DETACHING_SERVER = join(REPO, "fixtures", "detaching-server.sh");
const INITIALIZE = { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "test", version: "0" } };
const markers: string[] = [];

afterEach(async () => {
  for (const marker of markers.splice(0)) killAll(await findProcesses(marker));
});

/** Starts the server, and waits until its detached child runs, in a group other than the server's. */
async function startWithDetachedChild(command: string, args: string[], marker: string): Promise<StdioTransport> {
  markers.push(marker);
  const transport = new StdioTransport({ command, args, env: process.env as Record<string, string> }, { closeGraceMs: 500 });
  await transport.start();
  await rpc(transport).request("initialize", INITIALIZE);
  const [stray] = await waitFor(async () => {
    const pids = await findProcesses(`^sleep ${marker}`);
    return pids.length > 0 && pids;
  }, "the detached child");
  // The fixture really detaches: signalling the server's group would not reach this process.
  expect(readProcess(stray as number)?.pgrp).not.toBe(transport.pid);
  return transport;
}

describe.skipIf(process.platform !== "linux")("a child detached with setsid", () => {
  test("is ended by close() when the server exits on its own as stdin closes", async () => {
    const marker = uniqueSeconds();
    const transport = await startWithDetachedChild(DETACHING_SERVER, [marker], marker);
    await transport.close();
    expect(await waitForNoProcesses(marker, 3000)).toEqual([]);
  });

  test("is ended by close() when the server outlives stdin and its group must be signalled", async () => {
    const marker = uniqueSeconds();
    // sh stays after the echo server ends, so close() has to signal the group.
    const script = `setsid sleep ${marker} </dev/null >/dev/null 2>&1 & ${ECHO_SERVER}; sleep 600`;
    const transport = await startWithDetachedChild("sh", ["-c", script], marker);
    await transport.close();
    expect(await waitForNoProcesses(marker, 3000)).toEqual([]);
  });
});
