/**
 * The fault matrix's first promise: whatever one server does, every call ends within its timeout
 * plus one second, with an outcome that says what happened. One row per misbehaviour of
 * fixtures/chaos-server.ts, over stdio and over Streamable HTTP.
 */
import { describe, expect, test } from "bun:test";
import { McpClient } from "../../src/mcp/client/mcp-client.ts";
import { chaosTransport, within, type TransportKind } from "./chaos.ts";

/**
 * The per-request timeout. Rows that must succeed finish well inside it even on a loaded machine
 * (a stdio server's start-up counts towards its first request); rows that hang wait it out.
 */
const TIMEOUT_MS = 2000;
const BOUND_MS = TIMEOUT_MS + 1000;

/** The outcome of a request that waited out TIMEOUT_MS. */
const timedOut = (method: string) => new RegExp(`^error: ${method} timed out after ${TIMEOUT_MS} ms`);

interface Row {
  what: string;
  flags: string[];
  /** What the run ends with: `ok: <texts>` or `error: <message>`. */
  outcome: RegExp;
  /** Concurrent echo calls (default 1). */
  calls?: number;
}

const OK = /^ok: call 0$/;

const BOTH: Row[] = [
  { what: "crash before the handshake", flags: ["--crash=before-handshake"], outcome: /^error: / },
  { what: "crash after the handshake", flags: ["--crash=after-handshake"], outcome: /^error: / },
  { what: "crash mid-call", flags: ["--crash=on-call"], outcome: /^error: / },
  { what: "exit 0 silently mid-call", flags: ["--exit-silently-on-call"], outcome: /^error: / },
  { what: "hang on initialize", flags: ["--hang=initialize"], outcome: timedOut("initialize") },
  { what: "hang on a call", flags: ["--hang=call"], outcome: timedOut("tools/call") },
  { what: "answer slowly, within the timeout", flags: ["--slow-ms=300"], outcome: OK },
  { what: "answer slower than the timeout", flags: [`--slow-ms=${TIMEOUT_MS + 500}`], outcome: timedOut("initialize") },
  { what: "garbage before every answer", flags: ["--garbage"], outcome: OK },
  { what: "every message split across writes", flags: ["--split-writes"], outcome: OK },
  { what: "CRLF line endings", flags: ["--crlf"], outcome: OK },
  { what: "a UTF-8 BOM", flags: ["--bom"], outcome: OK },
  { what: "answers out of order", flags: ["--shuffle=8"], calls: 8, outcome: /^ok: call 0, call 1, call 2, call 3, call 4, call 5, call 6, call 7$/ },
  { what: "a stray answer to an id never asked", flags: ["--unknown-id"], outcome: OK },
  { what: "a stray answer without an id", flags: ["--omit-id"], outcome: OK },
  { what: "a second answer to a finished id", flags: ["--duplicate-id"], outcome: OK },
  {
    what: "ping, sampling, roots and elicitation requests before the answer",
    flags: ["--server-requests"],
    outcome: /^ok: call 0 \| ping:ok \{\} sampling\/createMessage:error -32601 roots\/list:error -32601 elicitation\/create:error -32601$/,
  },
  { what: "progress, message and list_changed notifications before answers", flags: ["--notifications"], outcome: OK },
  { what: "an isError result", flags: ["--is-error"], outcome: /^ok: call 0 \(isError\)$/ },
  { what: "initialize refused with a JSON-RPC error", flags: ["--refuse-initialize"], outcome: /^error: initialize refused by chaos$/ },
  { what: "an unsupported protocol version", flags: ["--protocol-version=1999-01-01"], outcome: /^error: initialize failed: unsupported protocol version 1999-01-01/ },
];

const STDIO_ONLY: Row[] = [
  { what: "1 MB flood on stderr", flags: ["--stderr-flood=1000000"], outcome: OK },
  { what: "crash before the handshake names the exit code", flags: ["--crash=before-handshake"], outcome: /^error: initialize failed: the server exited with code 3; its last stderr lines:\nchaos: crashing before the handshake$/ },
  { what: "exit 0 silently mid-call names the exit code", flags: ["--exit-silently-on-call"], outcome: /^error: the server exited with code 0$/ },
];

const HTTP_ONLY: Row[] = [
  { what: "404 for the session on every call", flags: ["--status=404"], outcome: /^error: .*expired the session, then refused the new one too \(404 twice\)/ },
  { what: "500 on a call", flags: ["--status=500"], outcome: /^error: the server at \S+ answered 500 Internal Server Error: Internal Server Error$/ },
  { what: "503 on a call", flags: ["--status=503"], outcome: /^error: the server at \S+ answered 503 Service Unavailable/ },
  { what: "401 on every request", flags: ["--status=401"], outcome: /^error: the server at \S+ answered 401 Unauthorized: missing or bad token\. Set "headers"/ },
  { what: "an HTML page instead of an answer", flags: ["--html-body"], outcome: /^error: .*answered tools\/call with 200 and content type text\/html/ },
  { what: "the answer under a wrong content type", flags: ["--content-type=text/plain"], outcome: /^error: .*answered tools\/call with 200 and content type text\/plain/ },
  { what: "an SSE stream that drops mid-message, then resumes", flags: ["--sse-drop"], outcome: OK },
  { what: "an SSE stream that drops mid-message with nothing to resume from", flags: ["--sse-drop=hard"], outcome: /^error: .*ended the stream before answering tools\/call, with no event id to resume from$/ },
  { what: "headers that trickle in, within the timeout", flags: ["--trickle-headers=1"], outcome: OK },
  { what: "headers that trickle in slower than the timeout", flags: ["--trickle-headers=40"], outcome: timedOut("initialize") },
  { what: "plain JSON answers", flags: ["--json-response"], outcome: OK },
  { what: "plain JSON answer that never comes (no headers at all)", flags: ["--json-response", "--hang=call"], outcome: timedOut("tools/call") },
];

/** Connect, list, call: each step bounded; the first failure is the outcome. */
async function run(kind: TransportKind, row: Row): Promise<{ outcome: string; slowestMs: number }> {
  const { transport, stop } = await chaosTransport(kind, row.flags);
  const client = new McpClient(transport, { timeoutMs: TIMEOUT_MS });
  let slowestMs = 0;
  const step = async <T>(what: string, promise: Promise<T>): Promise<T> => {
    const started = performance.now();
    try {
      return await within(promise, BOUND_MS, what);
    } finally {
      slowestMs = Math.max(slowestMs, performance.now() - started);
    }
  };
  try {
    await step("connect", client.connect());
    await step("tools/list", client.listTools());
    const calls = Array.from({ length: row.calls ?? 1 }, (_, i) => client.callTool("echo", { text: `call ${i}` }));
    const results = await step("tools/call", Promise.all(calls));
    const texts = results.map((r) => `${(r.content[0] as { text: string }).text}${r.isError ? " (isError)" : ""}`);
    return { outcome: `ok: ${texts.join(", ")}`, slowestMs };
  } catch (error) {
    if ((error as Error).message.startsWith("HUNG")) throw error;
    return { outcome: `error: ${(error as Error).message}`, slowestMs };
  } finally {
    await within(client.close(), 6000, "close");
    await stop();
  }
}

for (const kind of ["stdio", "http"] as const) {
  describe(`no hang over ${kind}: every step ends within its timeout + 1 s`, () => {
    // A row that waits out the timeout spends it idle, with a server of its own: those run side by
    // side (bun runs adjacent test.concurrent rows together), first; the others one at a time.
    const rows = [...BOTH, ...(kind === "stdio" ? STDIO_ONLY : HTTP_ONLY)];
    const waitsOutTheTimeout = (row: Row) => row.outcome.source.includes("timed out after");
    for (const row of [...rows.filter(waitsOutTheTimeout), ...rows.filter((row) => !waitsOutTheTimeout(row))]) {
      (waitsOutTheTimeout(row) ? test.concurrent : test)(row.what, async () => {
        const { outcome, slowestMs } = await run(kind, row);
        expect(outcome).toMatch(row.outcome);
        expect(slowestMs).toBeLessThan(BOUND_MS);
      });
    }
  });
}
