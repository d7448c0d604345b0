/**
 * Benchmark 5: `cat-code mcp list` (the compiled binary) with 20 stdio servers that each wait
 * 300 ms before answering `initialize`: connected side by side, the wall time stays near 300 ms
 * plus start-up, never the 6 s sum.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { BUN, ECHO_SERVER, ROOT } from "./paths.ts";
import { benchBinary, cleanEnv, timedRun } from "./processes.ts";
import type { Section } from "./report.ts";
import { formatMs, max, median, min, verdict } from "./stats.ts";

const DELAY_MS = 300;

function writeConfig(servers: number): string {
  const dir = join(ROOT, "dist", "bench");
  mkdirSync(dir, { recursive: true });
  const path = join(dir, `slow-${servers}.mcp.json`);
  const mcpServers: Record<string, unknown> = {};
  for (let i = 1; i <= servers; i++) mcpServers[`slow${i}`] = { command: BUN, args: [ECHO_SERVER, `--init-delay-ms=${DELAY_MS}`] };
  writeFileSync(path, JSON.stringify({ mcpServers }, null, 2));
  return path;
}

export async function parallelConnect(options: { rounds: number; log: (line: string) => void }): Promise<{ section: Section; headline: string }> {
  const binary = await benchBinary();
  const configs = { one: writeConfig(1), twenty: writeConfig(20) };
  const times: Record<"one" | "twenty", number[]> = { one: [], twenty: [] };
  for (let round = -1; round < options.rounds; round++) {
    for (const which of round % 2 ? (["one", "twenty"] as const) : (["twenty", "one"] as const)) {
      const run = await timedRun([binary, "mcp", "list", "--mcp-config", configs[which]], { env: cleanEnv() });
      const connected = (run.stdout.match(/CONNECTED/g) ?? []).length;
      const expected = which === "one" ? 1 : 20;
      if (run.exitCode !== 0 || connected !== expected) {
        throw new Error(`mcp list with ${expected} server(s): exit ${run.exitCode}, ${connected} connected\n${run.stdout}${run.stderr}`);
      }
      if (round < 0) continue;
      times[which].push(run.ms);
      options.log(`  round ${round + 1}: ${which === "one" ? 1 : 20} server(s): ${formatMs(run.ms)}`);
    }
  }
  const twenty = median(times.twenty);
  const one = median(times.one);
  return {
    section: {
      title: "5. Parallel connect: 20 slow stdio servers",
      method:
        `Wall time of \`cat-code mcp list --mcp-config <file>\` (the compiled binary, built as a release is: minified, with ` +
        `bytecode) from spawn to exit, with 20 servers (\`fixtures/bench/echo-server.ts --init-delay-ms=${DELAY_MS}\`, each run by ` +
        `Bun) that wait ${DELAY_MS} ms before answering \`initialize\`; one such server alone for reference. ${options.rounds} rounds ` +
        "after one warm-up, alternating. Every run must show every server CONNECTED. Starting 20 Bun processes on 2 cores is " +
        "itself a good part of the time.",
      table: [
        ["servers", "median wall time", "fastest – slowest", "if connected one after another"],
        ["1", formatMs(one), `${formatMs(min(times.one))} – ${formatMs(max(times.one))}`, formatMs(DELAY_MS)],
        ["20", formatMs(twenty), `${formatMs(min(times.twenty))} – ${formatMs(max(times.twenty))}`, formatMs(20 * DELAY_MS)],
      ],
      verdicts: [`20 servers within 1.5 s: ${formatMs(twenty)} ${verdict(twenty <= 1500)} (the slowest run: ${formatMs(max(times.twenty))})`],
    },
    headline: `Parallel connect: 20 servers with a 300 ms handshake listed in ${formatMs(twenty)} (one alone: ${formatMs(one)}; the sum would be 6 s)`,
  };
}
