/**
 * A server that floods cat-code with messages costs a bounded amount of memory, measured on a real
 * `cat-code mcp call` child process (test/stress/measure-memory.ts: its peak resident size at
 * exit), against the fixture's `--flood` of pings it never reads the replies to, or notifications.
 */
import { beforeAll, describe, expect, test } from "bun:test";
import { join } from "node:path";
import { MAX_SERVER_REQUESTS_IN_FLIGHT } from "../../../../src/mcp/rpc/json-rpc-connection.ts";
import { BUN, CHAOS_SERVER, REPO } from "../../../helpers/paths.ts";

const MB = 1024 * 1024;
const MEASURE = join(REPO, "test", "stress", "measure-memory.ts");

interface Measured {
  peak: number;
  code: number;
  stdout: string;
  stderr: string;
}

async function measureCall(serverFlags: string[]): Promise<Measured> {
  const server = [BUN, CHAOS_SERVER, ...serverFlags].join(" ");
  const child = Bun.spawn([BUN, MEASURE, "mcp", "call", "--stdio", server, "echo", "text=hi"], {
    stdout: "pipe",
    stderr: "pipe",
    env: { ...process.env, CAT_CODE_HOME: "/nonexistent-cat-code-home" },
  });
  // Only catches a hang: a flood that is not cut off runs for minutes.
  const timer = setTimeout(() => child.kill("SIGKILL"), 60_000);
  const [stdout, stderr] = await Promise.all([new Response(child.stdout).text(), new Response(child.stderr).text(), child.exited]);
  clearTimeout(timer);
  const line = /MEMORY (.*)/.exec(stderr)?.[1];
  if (!line) throw new Error(`no MEMORY line; stderr:\n${stderr.slice(-2000)}`);
  const { peak, code } = JSON.parse(line) as { peak: number; code: number };
  return { peak, code, stdout, stderr: stderr.replace(/MEMORY .*\n/, "") };
}

describe("floods from a stdio server", () => {
  let quiet: Measured;
  beforeAll(async () => {
    quiet = await measureCall([]);
  });

  test("a server that floods pings and never reads the replies is dropped with a message, memory bounded", async () => {
    const flooded = await measureCall(["--flood=ping", "--flood-count=3000000"]);
    expect(flooded.code).toBe(3);
    expect(flooded.stderr.trim().split("\n")).toEqual([
      expect.stringContaining(
        `calling 'echo' on 'adhoc' failed: the server sent more than ${MAX_SERVER_REQUESTS_IN_FLIGHT} requests without reading the replies; the connection was closed`,
      ),
    ]);
    // Without the bound, every reply stayed queued: gigabytes.
    expect(flooded.peak - quiet.peak).toBeLessThan(60 * MB);
  });

  test("fewer unread pings than the bound are answered and the call still succeeds", async () => {
    const flooded = await measureCall(["--flood=ping", "--flood-count=2000"]);
    expect([flooded.code, flooded.stdout, flooded.stderr]).toEqual([0, "hi\n", ""]);
  });

  test("2 million notifications cost about what 200 thousand cost: none is kept", async () => {
    const few = await measureCall(["--flood=notifications", "--flood-count=200000"]);
    const many = await measureCall(["--flood=notifications", "--flood-count=2000000"]);
    expect([few.code, many.code, many.stdout]).toEqual([0, 0, "hi\n"]);
    console.log(`notification flood: 200k -> peak ${(few.peak / MB).toFixed(0)} MB, 2M -> ${(many.peak / MB).toFixed(0)} MB`);
    // 1.8 million more notifications of ~250 bytes would be 450 MB if they were kept.
    expect(many.peak - few.peak).toBeLessThan(40 * MB);
  });
});
