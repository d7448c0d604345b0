/**
 * Benchmark 11: what `cat-code mcp serve` adds to a tool call. One SDK client calls the bench echo
 * server directly; another calls the same server through the compiled binary's `mcp serve` (stdio
 * on both sides, everything warm: connected once, before the timing). Rounds alternate between the
 * two, the first rotating; the difference of the per-call medians is what the endpoint adds.
 */
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { interleave, medianOf, type Contender } from "./interleave.ts";
import { BUN, ECHO_SERVER } from "./paths.ts";
import { benchBinary } from "./processes.ts";
import type { Section } from "./report.ts";
import { max, median, min, verdict } from "./stats.ts";

/** Calls take well under a millisecond here: shown in microseconds. */
const micro = (ms: number) => (Number.isFinite(ms) ? `${Math.round(ms * 1000)} µs` : "n/a");

export interface ServeOverheadOptions {
  /** Sequential calls per run. */
  calls: number;
  rounds: number;
  log: (line: string) => void;
}

/** The target of issue 31: a call through mcp serve adds at most this over a direct call. */
const TARGET_ADDED_MS = 2;

async function connected(command: string, args: string[], env: Record<string, string>): Promise<Client> {
  const client = new Client({ name: "bench", version: "1.0.0" });
  await client.connect(new StdioClientTransport({ command, args, env, stderr: "ignore" }));
  return client;
}

/** `calls` sequential echo calls; the sample is the time per call. */
function contender(name: string, client: Client, tool: string, calls: number): Contender {
  return {
    name,
    async run() {
      const started = performance.now();
      for (let i = 0; i < calls; i++) await client.callTool({ name: tool, arguments: { text: "hi" } });
      return { ms: (performance.now() - started) / calls };
    },
  };
}

export async function serveOverhead(options: ServeOverheadOptions): Promise<{ section: Section; headline: string }> {
  const { calls, rounds, log } = options;
  const binary = await benchBinary();
  const home = mkdtempSync(join(tmpdir(), "cat-code-bench-serve-"));
  const config = join(home, "mcp.json");
  writeFileSync(config, JSON.stringify({ mcpServers: { echo: { command: BUN, args: [ECHO_SERVER] } } }));
  const env = { PATH: process.env.PATH ?? "", CAT_CODE_HOME: home };
  const direct = await connected(BUN, [ECHO_SERVER], env);
  const served = await connected(binary, ["mcp", "serve", "--mcp-config", config], env);
  let result;
  try {
    result = await interleave([contender("direct", direct, "echo", calls), contender("serve", served, "echo__echo", calls)], {
      rounds,
      onSample: (name, sample, round) => log(`  round ${round + 1}: ${name} ${sample.ms.toFixed(3)} ms per call`),
    });
  } finally {
    await Promise.all([direct.close(), served.close()]);
  }
  const perCall = (name: string) => medianOf(result, name);
  // Paired: the median over rounds of the difference within a round, so a noisy round moves both sides.
  const serveTimes = result.samples.get("serve")!.map((s) => s.ms);
  const added = median(result.samples.get("direct")!.map((s, round) => serveTimes[round]! - s.ms));
  const spread = (name: string) => {
    const times = result.samples.get(name)!.map((s) => s.ms);
    return `${micro(min(times))} – ${micro(max(times))}`;
  };
  const table = [
    ["contender", "median time per call", "fastest – slowest run"],
    ["SDK client → bench echo server (direct)", micro(perCall("direct")), spread("direct")],
    ["SDK client → `cat-code mcp serve` → bench echo server", micro(perCall("serve")), spread("serve")],
  ];
  const section: Section = {
    title: `11. mcp serve: a tool call through it vs a direct call (${calls} sequential calls per run)`,
    method:
      `The SDK v1 client calls \`echo\` on \`fixtures/bench/echo-server.ts\` directly, and \`echo__echo\` through the compiled ` +
      `binary's \`mcp serve\` in front of the same server (stdio on both sides). Both are connected once before the timing, so ` +
      `every call is warm; ${calls} sequential calls per run, ${rounds} rounds after one warm-up round, the two alternating with ` +
      `the first rotating. Added = the median over rounds of (through mcp serve − direct) per call in the same round.`,
    table,
    verdicts: [`${verdict(added <= TARGET_ADDED_MS)}: a call through mcp serve adds ${micro(added)} (target ≤ ${TARGET_ADDED_MS} ms)`],
  };
  return { section, headline: `mcp serve adds ${micro(added)} per warm tool call (target ≤ ${TARGET_ADDED_MS} ms)` };
}
