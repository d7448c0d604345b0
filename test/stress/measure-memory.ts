/**
 * Runs `cat-code <args>` in this process, exactly as src/cli/main.ts does, then writes the peak
 * resident set size (VmHWM) to stderr as `MEMORY {"peak":…,"startup":…,"code":…}` (bytes) before
 * exiting with the command's code. Read at exit from /proc/self, so no peak can slip between polls;
 * `startup` is the resident size after loading, before the command ran.
 */
import { readFileSync } from "node:fs";

function residentBytes(field: "VmHWM" | "VmRSS"): number {
  const match = new RegExp(`${field}:\\s+(\\d+) kB`).exec(readFileSync("/proc/self/status", "utf8"));
  return Number(match?.[1]) * 1024;
}

const { main } = await import("../../src/cli/main.ts");
const startup = residentBytes("VmHWM");
const code = await main(process.argv.slice(2));
process.stderr.write(`MEMORY ${JSON.stringify({ peak: residentBytes("VmHWM"), startup, code })}\n`);
process.exit(code);
