/**
 * The three ways of driving the bench echo server over stdio, each behind the same small interface:
 * cat-code's client, the official SDK's client (both in this Bun process), and the raw limit, a loop
 * that writes a fixed request line and counts answer lines on the same kind of pipe, with no MCP.
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { McpClient } from "../../src/mcp/client/mcp-client.ts";
import { StdioTransport } from "../../src/mcp/transport/stdio-transport.ts";
import { BUN, ECHO_SERVER } from "./paths.ts";

/** A connected client: `call` runs one `tools/call`; `close` ends the server. */
export interface EchoConnection {
  call(text: string): Promise<unknown>;
  /** `n` calls with at most `inFlight` outstanding; the default runs them one after another. */
  burst?(n: number, inFlight: number): Promise<void>;
  close(): Promise<void>;
}

export type StdioClientKind = "cat-code" | "sdk" | "raw";

const serverArgs = (extra: string[]) => [ECHO_SERVER, ...extra];

function env(): Record<string, string> {
  return Object.fromEntries(Object.entries(process.env).filter((e): e is [string, string] => e[1] !== undefined));
}

export async function connectCatCode(extra: string[] = []): Promise<EchoConnection & { client: McpClient }> {
  const client = new McpClient(new StdioTransport({ command: BUN, args: serverArgs(extra), env: env() }), { timeoutMs: 120_000 });
  await client.connect();
  return {
    client,
    call: (text) => client.callTool("echo", { text }),
    close: () => client.close(),
  };
}

export async function connectSdk(extra: string[] = []): Promise<EchoConnection & { client: Client }> {
  const client = new Client({ name: "bench", version: "1.0.0" });
  await client.connect(new StdioClientTransport({ command: BUN, args: serverArgs(extra), env: env(), stderr: "inherit", maxBufferSize: 2 ** 30 }));
  return {
    client,
    call: (text) => client.callTool({ name: "echo", arguments: { text } }, undefined, { timeout: 120_000 }),
    close: () => client.close(),
  };
}

/**
 * The raw limit: the same server, the same kind of pipe (Bun.spawn), the same request line, but no
 * JSON-RPC bookkeeping at all: write a line, count newlines coming back.
 */
export async function connectRaw(extra: string[] = []): Promise<EchoConnection> {
  const child = Bun.spawn([BUN, ...serverArgs(extra)], { stdin: "pipe", stdout: "pipe", stderr: "inherit" });
  const reader = child.stdout.getReader();
  const line = (text: string) =>
    new TextEncoder().encode(`${JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "echo", arguments: { text } } })}\n`);
  let cached: { text: string; bytes: Uint8Array } | undefined;
  const bytesFor = (text: string) => (cached?.text === text ? cached.bytes : (cached = { text, bytes: line(text) }).bytes);

  /** Reads until `count` more newlines have arrived. */
  let surplus = 0;
  async function readLines(count: number, onLines?: (n: number) => void): Promise<void> {
    let seen = Math.min(surplus, count);
    surplus -= seen;
    while (seen < count) {
      const { done, value } = await reader.read();
      if (done) throw new Error("the raw echo server closed its stdout");
      let n = 0;
      for (let i = value.indexOf(10); i !== -1; i = value.indexOf(10, i + 1)) n++;
      const used = Math.min(n, count - seen);
      surplus += n - used;
      seen += used;
      onLines?.(used);
    }
  }

  return {
    async call(text) {
      child.stdin.write(bytesFor(text));
      await child.stdin.flush();
      await readLines(1);
    },
    async burst(n, inFlight) {
      const request = bytesFor("hello");
      let sent = 0;
      const send = (k: number) => {
        for (let i = 0; i < k; i++) child.stdin.write(request);
        sent += k;
        void child.stdin.flush();
      };
      send(Math.min(inFlight, n));
      await readLines(n, (answered) => {
        const more = Math.min(answered, n - sent);
        if (more > 0) send(more);
      });
    },
    async close() {
      child.stdin.end();
      await child.exited;
    },
  };
}

export function connect(kind: StdioClientKind, extra: string[] = []): Promise<EchoConnection> {
  if (kind === "cat-code") return connectCatCode(extra);
  if (kind === "sdk") return connectSdk(extra);
  return connectRaw(extra);
}

/** `n` echo calls with at most `inFlight` outstanding at any time. */
export async function runCalls(connection: EchoConnection, n: number, inFlight: number, text = "hello"): Promise<void> {
  if (connection.burst) return connection.burst(n, inFlight);
  if (inFlight <= 1) {
    for (let i = 0; i < n; i++) await connection.call(text);
    return;
  }
  let started = 0;
  const worker = async () => {
    while (started < n) {
      started++;
      await connection.call(text);
    }
  };
  await Promise.all(Array.from({ length: Math.min(inFlight, n) }, worker));
}
