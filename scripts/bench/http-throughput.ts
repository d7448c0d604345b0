/**
 * Benchmark 3: sequential echo calls to one SDK Streamable HTTP server, in JSON and in SSE mode,
 * through cat-code's client and the SDK's client, with a raw fetch loop as the floor that the
 * server and HTTP set.
 */
import { connectHttp, startHttpServer, type HttpClientKind, type HttpMode } from "./http-clients.ts";
import { interleave, medianOf, pairedRatio, type Contender } from "./interleave.ts";
import type { Section } from "./report.ts";
import { formatMs, formatNumber, formatRatio, verdict } from "./stats.ts";

export interface HttpThroughputOptions {
  calls: number;
  rounds: number;
  log: (line: string) => void;
}

const LABELS: Record<HttpClientKind, string> = {
  "cat-code": "cat-code `McpClient` + `HttpTransport`",
  sdk: "SDK `Client` + `StreamableHTTPClientTransport`",
  raw: "raw `fetch` loop (server + HTTP floor)",
};

function contender(kind: HttpClientKind, url: string, calls: number): Contender {
  return {
    name: kind,
    async run() {
      const connection = await connectHttp(kind, url);
      try {
        for (let i = 0; i < Math.min(200, calls); i++) await connection.call("echo", { message: "hello" });
        const started = performance.now();
        for (let i = 0; i < calls; i++) await connection.call("echo", { message: "hello" });
        return { ms: performance.now() - started };
      } finally {
        await connection.close();
      }
    },
  };
}

export async function httpThroughput(options: HttpThroughputOptions): Promise<{ section: Section; headline: string }> {
  const { calls, rounds, log } = options;
  const kinds: HttpClientKind[] = ["cat-code", "sdk", "raw"];
  const table = [["mode", "contender", "median calls/s", "median time", "cat-code ÷ this (calls/s)", "server + HTTP share of cat-code's time"]];
  const verdicts: string[] = [];
  const headlines: string[] = [];
  for (const mode of ["json", "sse"] as HttpMode[]) {
    const server = await startHttpServer(mode);
    try {
      const result = await interleave(
        kinds.map((kind) => contender(kind, server.url, calls)),
        { rounds, onSample: (name, s, round) => log(`  ${mode} round ${round + 1}: ${name} ${formatNumber((calls / s.ms) * 1000)} calls/s`) },
      );
      const vsSdk = pairedRatio(result, "sdk", "cat-code");
      const floorShare = pairedRatio(result, "raw", "cat-code");
      for (const kind of kinds) {
        table.push([
          mode.toUpperCase(),
          LABELS[kind],
          formatNumber((calls / medianOf(result, kind)) * 1000),
          formatMs(medianOf(result, kind)),
          kind === "cat-code" ? "1.00×" : formatRatio(pairedRatio(result, kind, "cat-code")),
          kind === "cat-code" ? `${Math.round(floorShare * 100)}%` : "",
        ]);
      }
      verdicts.push(`${mode.toUpperCase()}: cat-code ≥ 1.5× the SDK: ${formatRatio(vsSdk)} ${verdict(vsSdk >= 1.5)}; the raw floor takes ${Math.round(floorShare * 100)}% of cat-code's time, so no client could be more than ${formatRatio(1 / floorShare)} cat-code's speed here`);
      headlines.push(`${mode.toUpperCase()} ${formatRatio(vsSdk)}`);
    } finally {
      await server.stop();
    }
  }
  return {
    section: {
      title: `3. Streamable HTTP, sequential: ${formatNumber(calls)} echo calls`,
      method:
        `${formatNumber(calls)} sequential \`tools/call\` echo calls per run to \`fixtures/http/sdk-http-server.ts --big\` (the SDK's ` +
        "`McpServer` + `StreamableHTTPServerTransport` on `node:http`, run by Bun, stateful sessions), in JSON mode " +
        "(`enableJsonResponse`) and in SSE mode. Each run opens a new session, makes 200 untimed warm-up calls, then times the " +
        `calls; ${rounds} rounds after one warm-up round, one server per mode. The raw loop POSTs the same body with the ` +
        "session's headers and reads the whole answer with `fetch`: its time is what the server and HTTP cost by themselves.",
      table,
      verdicts,
    },
    headline: `HTTP sequential: cat-code vs the SDK ${headlines.join(", ")} (the SDK server's own cost dominates)`,
  };
}
