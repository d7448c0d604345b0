/**
 * Benchmarks 1 and 2: echo `tools/call`s over stdio to one bench echo server, sequential and with
 * many in flight, through cat-code's client, the SDK's client and the raw pipe loop.
 */
import { interleave, medianOf, pairedRatio, type Contender } from "./interleave.ts";
import type { Section } from "./report.ts";
import { formatMs, formatNumber, formatRatio, max, min, verdict } from "./stats.ts";
import { connect, runCalls, type StdioClientKind } from "./stdio-clients.ts";

export interface ThroughputOptions {
  calls: number;
  inFlight: number;
  rounds: number;
  log: (line: string) => void;
}

const LABELS: Record<StdioClientKind, string> = {
  "cat-code": "cat-code `McpClient` + `StdioTransport`",
  sdk: "SDK `Client` + `StdioClientTransport`",
  raw: "raw limit: fixed request line, count answer lines",
};

/** One run: a fresh server and connection, a short untimed warm-up, then the timed calls. */
function contender(kind: StdioClientKind, calls: number, inFlight: number): Contender {
  return {
    name: kind,
    async run() {
      const connection = await connect(kind);
      try {
        await runCalls(connection, Math.min(500, calls), inFlight);
        const cpu = process.cpuUsage();
        const started = performance.now();
        await runCalls(connection, calls, inFlight);
        const ms = performance.now() - started;
        // The server is another process: this is the client's own CPU time (user + system).
        const used = process.cpuUsage(cpu);
        return { ms, cpuUs: used.user + used.system };
      } finally {
        await connection.close();
      }
    },
  };
}

export async function stdioThroughput(options: ThroughputOptions): Promise<{ section: Section; headline: string }> {
  const { calls, inFlight, rounds, log } = options;
  const kinds: StdioClientKind[] = ["cat-code", "sdk", "raw"];
  const result = await interleave(
    kinds.map((kind) => contender(kind, calls, inFlight)),
    {
      rounds,
      onSample: (name, sample, round) => log(`  round ${round + 1}: ${name} ${formatNumber((calls / sample.ms) * 1000)} calls/s`),
    },
  );
  const rate = (ms: number) => (calls / ms) * 1000;
  // Rates are inverse times: cat-code's rate over another's is that one's time over cat-code's.
  // So these are cat-code's rate as a multiple of the SDK's, and as a fraction of the raw limit's.
  const vsSdk = pairedRatio(result, "sdk", "cat-code");
  const vsRaw = pairedRatio(result, "raw", "cat-code");
  const cpuPerCall = (kind: StdioClientKind) => medianOf(result, kind, "cpuUs") / calls;
  const cpuVsSdk = pairedRatio(result, "sdk", "cat-code", "cpuUs");
  const table = [["contender", "median calls/s", "slowest – fastest run", "median time", "cat-code ÷ this (calls/s)", "client CPU per call"]];
  for (const kind of kinds) {
    const times = result.samples.get(kind)!.map((s) => s.ms);
    table.push([
      LABELS[kind],
      formatNumber(rate(medianOf(result, kind))),
      `${formatNumber(rate(max(times)))} – ${formatNumber(rate(min(times)))}`,
      formatMs(medianOf(result, kind)),
      kind === "cat-code" ? "1.00×" : formatRatio(pairedRatio(result, kind, "cat-code")),
      `${cpuPerCall(kind).toFixed(1)} µs`,
    ]);
  }
  const mode = inFlight <= 1 ? "sequential" : `${inFlight} in flight`;
  const section: Section = {
    title: inFlight <= 1 ? `1. Stdio, sequential: ${formatNumber(calls)} echo calls` : `2. Stdio, concurrent: ${formatNumber(calls)} echo calls, ${inFlight} in flight`,
    method:
      `${formatNumber(calls)} \`tools/call\` echo calls (${mode}) to one \`fixtures/bench/echo-server.ts\` per run, all clients in this Bun ` +
      `process; each run starts a fresh server, connects, makes ${Math.min(500, calls)} untimed warm-up calls, then times the calls. ` +
      `${rounds} rounds after one warm-up round. The raw limit writes the same request line on the same kind of pipe ` +
      `(\`Bun.spawn\`) and counts newlines coming back: no JSON, no ids, no MCP${inFlight > 1 ? `; it keeps ${inFlight} lines in flight, writing as many new lines as answers arrive` : ""}.`,
    table,
    verdicts: [
      `cat-code ≥ 1.5× the SDK: ${formatRatio(vsSdk)} ${verdict(vsSdk >= 1.5)}`,
      `cat-code ≥ 0.6× the raw limit: ${formatRatio(vsRaw)} of it ${verdict(vsRaw >= 0.6)}`,
      `for scale: the raw limit itself is ${formatRatio(vsSdk / vsRaw)} the SDK's speed in this run, so that is the most any client could reach; ` +
        `in client CPU per call (the part a client controls, free of pipe scheduling), cat-code costs ${formatRatio(1 / cpuVsSdk)} of the SDK's`,
    ],
  };
  const headline = `Stdio ${mode}: cat-code ${formatNumber(rate(medianOf(result, "cat-code")))} calls/s, ${formatRatio(vsSdk)} the SDK, ${formatRatio(vsRaw)} of the raw pipe limit`;
  return { section, headline };
}
