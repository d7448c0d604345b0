#!/usr/bin/env bun
/**
 * `bun run bench`: measures cat-code against the official MCP SDK and against raw limits, side by
 * side in one run, and writes docs/BENCHMARKS.md. `--quick` runs fewer rounds and smaller counts
 * and writes dist/bench/BENCHMARKS.quick.md instead; `--only=1,2` runs some benchmarks only (into
 * dist/bench/BENCHMARKS.only.md).
 */
import { join } from "node:path";
import { coldStart } from "./bench/cold-start.ts";
import { describeMachine } from "./bench/machine.ts";
import { ROOT } from "./bench/paths.ts";
import { Report, type Section } from "./bench/report.ts";
import { httpThroughput } from "./bench/http-throughput.ts";
import { largeResults } from "./bench/large-results.ts";
import { modernThroughput } from "./bench/modern-throughput.ts";
import { parallelConnect } from "./bench/parallel-connect.ts";
import { replStart } from "./bench/repl-start.ts";
import { serveOverhead } from "./bench/serve-overhead.ts";
import { serversBackground } from "./bench/servers-background.ts";
import { stdioThroughput } from "./bench/stdio-throughput.ts";
import { toolSearchScale } from "./bench/tool-search-scale.ts";
import { warmCall } from "./bench/warm-call.ts";

const args = process.argv.slice(2);
const quick = args.includes("--quick");
const only = args.find((a) => a.startsWith("--only="))?.slice("--only=".length).split(",").map(Number);
const selected = (n: number) => !only || only.includes(n);
const log = (line: string) => console.error(line);

const settings = quick ? "quick mode (`--quick`): fewer rounds and smaller counts" : "full mode";
// A partial run (`--only`) never overwrites the published document: its sections are copied in by hand.
const path = quick || only ? join(ROOT, "dist", "bench", quick ? "BENCHMARKS.quick.md" : "BENCHMARKS.only.md") : join(ROOT, "docs", "BENCHMARKS.md");
const trailer = await Bun.file(join(import.meta.dir, "bench", "speed-changes.md")).text();
const report = new Report(path, await describeMachine(), settings, trailer);

async function bench(n: number, name: string, run: () => Promise<{ section: Section; headline?: string }>): Promise<void> {
  if (!selected(n)) return;
  log(`${n}. ${name}`);
  const started = performance.now();
  try {
    const { section, headline } = await run();
    report.add(section, headline);
  } catch (error) {
    // A benchmark that breaks is a result too: say so in the document and go on.
    report.add({ title: `${n}. ${name}`, method: "The benchmark failed.", table: [], verdicts: [`❌ failed: ${(error as Error).stack ?? error}`] });
  }
  log(`   done in ${((performance.now() - started) / 1000).toFixed(1)} s`);
}

await bench(1, "stdio, sequential", () => stdioThroughput({ calls: quick ? 1000 : 5000, inFlight: 1, rounds: quick ? 3 : 7, log }));
await bench(2, "stdio, concurrent", () => stdioThroughput({ calls: quick ? 2000 : 10_000, inFlight: 256, rounds: quick ? 3 : 7, log }));
await bench(3, "HTTP, sequential", () => httpThroughput({ calls: quick ? 500 : 2000, rounds: quick ? 3 : 5, log }));
await bench(4, "large results", () => largeResults({ rounds: quick ? 1 : 3, log }));
await bench(5, "parallel connect", () => parallelConnect({ rounds: quick ? 2 : 5, log }));
await bench(6, "cold start", () => coldStart({ rounds: quick ? 3 : 10, log }));
await bench(7, "REPL start", () => replStart({ rounds: quick ? 2 : 5, log }));
await bench(8, "2026-07-28 revision", () => modernThroughput({ stdioCalls: quick ? 1000 : 5000, httpCalls: quick ? 500 : 2000, rounds: quick ? 3 : 5, log }));
await bench(9, "warm mcp call (connection keeper)", () => warmCall({ rounds: quick ? 3 : 10, warmPerRound: quick ? 3 : 5, log }));
await bench(10, "REPL prompt and tools while servers connect", () => serversBackground({ rounds: quick ? 3 : 10, log }));
await bench(11, "MCP at scale: tool search", () => toolSearchScale({ rounds: quick ? 1 : 5, log }));
await bench(12, "mcp serve: a tool call through it vs direct", () => serveOverhead({ calls: quick ? 200 : 1000, rounds: quick ? 3 : 10, log }));

log(`wrote ${path}`);
