/**
 * Bounded memory, measured on a real `cat-code mcp call` child process (the CLI's code in a process
 * of its own; see measure-memory.ts): its peak resident size at exit, minus the peak of the same
 * command with a tiny answer, so the runtime, the modules and the connection cancel out.
 */
import { beforeAll, describe, expect, test } from "bun:test";
import { join } from "node:path";
import { BUN, CHAOS_SERVER } from "../helpers/paths.ts";

const MB = 1024 * 1024;
/** The big answer: 30 MB of text. */
const BIG_BYTES = 30_000_000;

async function peakOfCall(serverFlags: string[], tool: string[]): Promise<{ peak: number; stdoutBytes: number; code: number }> {
  const child = Bun.spawn(
    [BUN, join(import.meta.dir, "measure-memory.ts"), "mcp", "call", "--stdio", [BUN, CHAOS_SERVER, ...serverFlags].join(" "), ...tool],
    { stdout: "pipe", stderr: "pipe", env: { ...process.env, CAT_CODE_HOME: "/nonexistent-cat-code-home" } },
  );
  let stdoutBytes = 0;
  const counted = (async () => {
    for await (const chunk of child.stdout) stdoutBytes += chunk.length;
  })();
  const [stderr] = await Promise.all([new Response(child.stderr).text(), counted, child.exited]);
  const line = /MEMORY (.*)/.exec(stderr)?.[1];
  if (!line) throw new Error(`no MEMORY line; stderr:\n${stderr.slice(-2000)}`);
  const { peak, code } = JSON.parse(line) as { peak: number; code: number };
  return { peak, stdoutBytes, code };
}

describe("bounded memory", () => {
  let tiny: Awaited<ReturnType<typeof peakOfCall>>;
  let big: Awaited<ReturnType<typeof peakOfCall>>;
  beforeAll(async () => {
    tiny = await peakOfCall([], ["big", "bytes=10"]);
    big = await peakOfCall([], ["big", `bytes=${BIG_BYTES}`]);
    const extra = big.peak - tiny.peak;
    console.log(`30 MB answer: peak ${(big.peak / MB).toFixed(0)} MB, tiny call ${(tiny.peak / MB).toFixed(0)} MB, extra ${(extra / MB).toFixed(0)} MB = ${(extra / BIG_BYTES).toFixed(1)}x`);
  });

  test("a 30 MB answer is printed whole at a peak under 3x the message over a tiny call", () => {
    // The text and the newline after it.
    expect([big.code, big.stdoutBytes]).toEqual([0, BIG_BYTES + 1]);
    expect(big.peak - tiny.peak).toBeLessThan(3 * BIG_BYTES);
  });

  test("a flood of garbage lines: 200 MB cost about what 20 MB cost (memory does not grow with the flood)", async () => {
    const small = await peakOfCall(["--garbage-flood=20000000"], ["echo", "text=hi"]);
    const large = await peakOfCall(["--garbage-flood=200000000"], ["echo", "text=hi"]);
    expect([small.code, large.code, large.stdoutBytes]).toEqual([0, 0, 3]);
    console.log(`garbage flood: 20 MB -> peak ${(small.peak / MB).toFixed(0)} MB, 200 MB -> peak ${(large.peak / MB).toFixed(0)} MB`);
    // 180 MB more garbage may cost some garbage-collector slack, never a share of the flood.
    expect(large.peak - small.peak).toBeLessThan(40 * MB);
  });
});
