/**
 * Benchmark 4: one large `tools/call` result (1, 8 and 32 MB of text) over stdio and over HTTP
 * (JSON and SSE), each measurement in a child process of its own so that its peak memory is its own.
 */
import { join } from "node:path";
import { startHttpServer, type HttpServer } from "./http-clients.ts";
import type { Section } from "./report.ts";
import { median, formatMiB, formatMs, formatRatio, verdict } from "./stats.ts";
import { BUN } from "./paths.ts";

export interface LargeResultOptions {
  rounds: number;
  log: (line: string) => void;
}

interface Measurement {
  ms: number;
  extra: number;
}

const MB = 2 ** 20;
const SIZES = [1, 8, 32];
const CLIENTS = ["cat-code", "sdk"] as const;

async function measure(client: string, where: string, bytes: number): Promise<Measurement | string> {
  const child = Bun.spawn([BUN, join(import.meta.dir, "large-result-child.ts"), client, where, String(bytes)], {
    stdout: "pipe",
    stderr: "pipe",
  });
  const [stdout, stderr, code] = await Promise.all([new Response(child.stdout).text(), new Response(child.stderr).text(), child.exited]);
  const line = stdout.trim().split("\n").at(-1) ?? "";
  if (code !== 0 || !line.startsWith("{")) {
    const reason = /(?:Error|error)[^\n]*/.exec(stderr)?.[0] ?? `exit code ${code}`;
    return reason.slice(0, 160);
  }
  return JSON.parse(line) as Measurement;
}

export async function largeResults(options: LargeResultOptions): Promise<{ section: Section; headline: string }> {
  const servers: Record<string, HttpServer> = { json: await startHttpServer("json"), sse: await startHttpServer("sse") };
  const transports: [string, string][] = [
    ["stdio", "stdio"],
    ["HTTP JSON", servers.json!.url],
    ["HTTP SSE", servers.sse!.url],
  ];
  const results = new Map<string, (Measurement | string)[]>();
  const key = (transport: string, client: string, size: number) => `${transport}|${client}|${size}`;
  try {
    for (let round = 0; round < options.rounds; round++) {
      for (const [transport, where] of transports) {
        for (const size of SIZES) {
          const order = round % 2 ? [...CLIENTS].reverse() : CLIENTS;
          for (const client of order) {
            const m = await measure(client, where, size * MB);
            options.log(`  round ${round + 1}: ${transport} ${client} ${size} MB: ${typeof m === "string" ? `failed: ${m}` : `${formatMs(m.ms)}, +${formatMiB(m.extra)}`}`);
            const list = results.get(key(transport, client, size)) ?? [];
            list.push(m);
            results.set(key(transport, client, size), list);
          }
        }
      }
    }
  } finally {
    await Promise.all(Object.values(servers).map((s) => s.stop()));
  }

  const summary = (transport: string, client: string, size: number) => {
    const list = results.get(key(transport, client, size)) ?? [];
    const ok = list.filter((m): m is Measurement => typeof m !== "string");
    const failure = list.find((m): m is string => typeof m === "string");
    return { ms: median(ok.map((m) => m.ms)), extra: median(ok.map((m) => m.extra)), failure, runs: list.length, okRuns: ok.length };
  };

  const table = [["transport", "client", "1 MB", "8 MB", "32 MB", "32 MB ÷ 8 MB time", "peak ÷ payload (1 / 8 / 32 MB)"]];
  const verdicts: string[] = [];
  const headlines: string[] = [];
  for (const [transport] of transports) {
    for (const client of CLIENTS) {
      const cells = SIZES.map((size) => {
        const s = summary(transport, client, size);
        if (s.okRuns === 0) return `failed: ${s.failure}`;
        return `${formatMs(s.ms)}, +${formatMiB(s.extra)}${s.failure ? ` (${s.runs - s.okRuns} of ${s.runs} failed)` : ""}`;
      });
      const growth = summary(transport, client, 32).ms / summary(transport, client, 8).ms;
      const peaks = SIZES.map((size) => summary(transport, client, size).extra / (size * MB));
      table.push([transport, client, ...cells, formatRatio(growth), peaks.map((p) => (Number.isFinite(p) ? p.toFixed(2) : "n/a")).join(" / ")]);
      if (client === "cat-code") {
        const worstPeak = Math.max(...peaks.map((p) => (Number.isFinite(p) ? p : Infinity)));
        verdicts.push(
          `${transport}: 32 MB within 4.5× the 8 MB time: ${formatRatio(growth)} ${verdict(growth <= 4.5)}; peak under 4× the payload: at most ${worstPeak.toFixed(2)}× ${verdict(worstPeak < 4)}`,
        );
        headlines.push(`${transport} 32 MB in ${formatMs(summary(transport, client, 32).ms)} (+${formatMiB(summary(transport, client, 32).extra)})`);
      }
    }
  }
  return {
    section: {
      title: "4. Large results: 1, 8 and 32 MB",
      method:
        "One `tools/call` of the `big` tool, whose answer is a single text block of 1, 8 or 32 MiB (ASCII `x`), over stdio " +
        "(`fixtures/bench/echo-server.ts`) and over HTTP (`fixtures/http/sdk-http-server.ts --big`, JSON and SSE). Every measurement " +
        "runs in a fresh Bun child (`scripts/bench/large-result-child.ts`): it connects, makes a 1 KiB warm-up call, forces a " +
        "GC, reads `VmHWM` (peak resident set) from `/proc/self/status`, times the call until the parsed result is in hand, " +
        "and reads `VmHWM` again. **Peak** is the second `VmHWM` minus the first: the extra resident memory the call needed " +
        `at its worst moment, garbage not yet collected included. Cells are median time, +median peak over ${options.rounds} ` +
        "round(s); the SDK is shown for reference (its stdio transport refuses lines over 10 MiB by default, `maxBufferSize`; " +
        "the bench raises it to 1 GiB so that the SDK can take part).",
      table,
      verdicts,
    },
    headline: `Large results (cat-code): ${headlines.join("; ")}`,
  };
}
