/**
 * Benchmark 8: the 2026-07-28 revision (no handshake, `_meta` on every request). Echo `tools/call`s
 * to our modern fixture (`fixtures/modern/modern-server.ts`) over stdio (sequential and 256 in
 * flight) and over stateless Streamable HTTP (sequential), through cat-code's client, which finds
 * the revision by itself, and through the SDK v2 client with version negotiation on `auto`. The
 * rows of benchmarks 1–3 are the handshake revisions' beside these.
 */
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { join } from "node:path";
import { McpClient } from "../../src/mcp/client/mcp-client.ts";
import { HttpTransport } from "../../src/mcp/transport/http-transport.ts";
import { StdioTransport } from "../../src/mcp/transport/stdio-transport.ts";
import { interleave, medianOf, pairedRatio, type Contender } from "./interleave.ts";
import { BUN, ROOT } from "./paths.ts";
import type { Section } from "./report.ts";
import { formatMs, formatNumber, formatRatio } from "./stats.ts";
import { runCalls, type EchoConnection } from "./stdio-clients.ts";

const MODERN_SERVER = join(ROOT, "fixtures", "modern", "modern-server.ts");

export interface ModernThroughputOptions {
  stdioCalls: number;
  httpCalls: number;
  rounds: number;
  log: (line: string) => void;
}

type Kind = "cat-code" | "sdk-v2";
type Mode = { name: string; transport: "stdio" | "http"; calls: number; inFlight: number };

const LABELS: Record<Kind, string> = {
  "cat-code": "cat-code `McpClient` (finds 2026-07-28 itself)",
  "sdk-v2": "SDK v2 `Client`, `versionNegotiation: auto`",
};

function env(): Record<string, string> {
  return Object.fromEntries(Object.entries(process.env).filter((e): e is [string, string] => e[1] !== undefined));
}

async function connect(kind: Kind, transport: "stdio" | "http", url: string): Promise<EchoConnection> {
  if (kind === "cat-code") {
    const client = new McpClient(
      transport === "stdio" ? new StdioTransport({ command: BUN, args: [MODERN_SERVER, "--stdio"], env: env() }) : new HttpTransport({ url, headers: {} }),
      { timeoutMs: 120_000 },
    );
    await client.connect();
    if (client.era !== "modern") throw new Error(`cat-code spoke the ${client.era} era with the modern fixture, not 2026-07-28`);
    return { call: (text) => client.callTool("echo", { text }), close: () => client.close() };
  }
  const client = new Client({ name: "bench", version: "2.4.0" }, { versionNegotiation: { mode: "auto" } });
  await client.connect(
    transport === "stdio" ? new StdioClientTransport({ command: BUN, args: [MODERN_SERVER, "--stdio"], env: env(), stderr: "inherit" }) : new StreamableHTTPClientTransport(new URL(url)),
  );
  return { call: (text) => client.callTool({ name: "echo", arguments: { text } }, { timeout: 120_000 }), close: () => client.close() };
}

function contender(kind: Kind, mode: Mode, url: string): Contender {
  return {
    name: kind,
    async run() {
      const connection = await connect(kind, mode.transport, url);
      try {
        await runCalls(connection, Math.min(200, mode.calls), mode.inFlight);
        const started = performance.now();
        await runCalls(connection, mode.calls, mode.inFlight);
        return { ms: performance.now() - started };
      } finally {
        await connection.close();
      }
    },
  };
}

async function startHttp(): Promise<{ url: string; stop(): Promise<void> }> {
  const child = Bun.spawn([BUN, MODERN_SERVER, "--http"], { stdout: "pipe", stderr: "inherit" });
  const reader = child.stdout.getReader();
  let text = "";
  while (!/listening (\S+)/.test(text)) {
    const { done, value } = await reader.read();
    if (done) throw new Error("the modern fixture exited before it listened");
    text += new TextDecoder().decode(value);
  }
  reader.releaseLock();
  return {
    url: /listening (\S+)/.exec(text)![1]!,
    async stop() {
      child.kill();
      await child.exited;
    },
  };
}

export async function modernThroughput(options: ModernThroughputOptions): Promise<{ section: Section; headline: string }> {
  const { rounds, log } = options;
  const modes: Mode[] = [
    { name: "stdio, sequential", transport: "stdio", calls: options.stdioCalls, inFlight: 1 },
    { name: "stdio, 256 in flight", transport: "stdio", calls: options.stdioCalls * 2, inFlight: 256 },
    { name: "HTTP, sequential", transport: "http", calls: options.httpCalls, inFlight: 1 },
  ];
  const kinds: Kind[] = ["cat-code", "sdk-v2"];
  const table = [["mode", "contender", "calls", "median calls/s", "median time", "cat-code ÷ this (calls/s)"]];
  const headlines: string[] = [];
  const http = await startHttp();
  try {
    for (const mode of modes) {
      const result = await interleave(
        kinds.map((kind) => contender(kind, mode, http.url)),
        { rounds, onSample: (name, s, round) => log(`  ${mode.name} round ${round + 1}: ${name} ${formatNumber((mode.calls / s.ms) * 1000)} calls/s`) },
      );
      for (const kind of kinds) {
        table.push([
          mode.name,
          LABELS[kind],
          formatNumber(mode.calls),
          formatNumber((mode.calls / medianOf(result, kind)) * 1000),
          formatMs(medianOf(result, kind)),
          kind === "cat-code" ? "1.00×" : formatRatio(pairedRatio(result, kind, "cat-code")),
        ]);
      }
      headlines.push(`${mode.name} ${formatNumber((mode.calls / medianOf(result, "cat-code")) * 1000)} calls/s (${formatRatio(pairedRatio(result, "sdk-v2", "cat-code"))} SDK v2)`);
    }
  } finally {
    await http.stop();
  }
  return {
    section: {
      title: "8. The 2026-07-28 revision: echo calls over stdio and stateless HTTP",
      method:
        "Echo `tools/call`s to `fixtures/modern/modern-server.ts` (ours, 2026-07-28 only: every request carries `_meta`, no " +
        "`initialize`, no session), over stdio (a fresh server per run) and over Streamable HTTP (one server, every call its own " +
        "POST with `MCP-Protocol-Version`, `Mcp-Method` and `Mcp-Name`). Each run connects (cat-code probes, or recalls nothing: " +
        "no era memory here; the SDK v2 client probes with `server/discover`), makes 200 untimed warm-up calls, then times the " +
        `calls; ${rounds} rounds after one warm-up round, interleaved. The handshake revisions' rows are benchmarks 1–3 ` +
        "(another server: the bench echo server and the SDK v1 HTTP server), so compare the shape, not the last percent.",
      table,
      verdicts: [],
    },
    headline: `2026-07-28: ${headlines.join("; ")}`,
  };
}
