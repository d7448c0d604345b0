/**
 * SIGTERM to the compiled binary while its server is busy, the server having started a child that
 * left its process group with `setsid`: the group signal cannot reach that child, /proc can.
 */
import { afterEach, describe, expect, test } from "bun:test";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { compiledBinary } from "../helpers/binary.ts";
import { BUN, CHAOS_SERVER, tempDir, uniqueSeconds, writeConfig } from "../helpers/paths.ts";
import { findProcesses, killAll, waitForNoProcesses } from "../helpers/processes.ts";
import { waitFor } from "../helpers/wait-for.ts";

const cleanups: (() => void | Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

describe.skipIf(process.platform !== "linux")("SIGTERM to cat-code mcp call (compiled), the server having detached a child", () => {
  test("exits 143 and neither the server nor its detached child remains", async () => {
    const binary = await compiledBinary();
    const dir = tempDir();
    const marker = uniqueSeconds();
    const record = join(dir, "received.ndjson");
    const script = `setsid sleep ${marker} </dev/null >/dev/null 2>&1 & exec ${BUN} ${CHAOS_SERVER} --record=${record} --grandchild=${marker}`;
    const config = writeConfig({ busy: { command: "sh", args: ["-c", script] } }, dir);
    cleanups.push(async () => killAll(await findProcesses(marker)));

    const child = Bun.spawn([binary, "mcp", "call", "busy", "sleep", "ms=60000", "--mcp-config", config], {
      env: { ...process.env, CAT_CODE_HOME: tempDir() } as Record<string, string>,
      stdin: "ignore",
      stdout: "ignore",
      stderr: "ignore",
    });
    cleanups.push(() => child.kill("SIGKILL"));
    await waitFor(() => existsSync(record) && readFileSync(record, "utf8").includes('"tools/call"'), "the call to reach the server");
    await waitFor(async () => (await findProcesses(`^sleep ${marker}`)).length === 2, "the detached child and the grandchild");

    child.kill("SIGTERM");
    expect(await Promise.race([child.exited, Bun.sleep(10_000).then(() => "hung")])).toBe(143);
    expect(await waitForNoProcesses(marker, 3000)).toEqual([]);
  });
});
