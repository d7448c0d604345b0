/** Starting fixtures/chaos-server.ts over either transport, for the reliability tests. */
import { HttpTransport } from "../../src/mcp/transport/http-transport.ts";
import { StdioTransport } from "../../src/mcp/transport/stdio-transport.ts";
import type { Transport } from "../../src/mcp/transport/transport.ts";
import { BUN, CHAOS_SERVER } from "../helpers/paths.ts";
import { spawnServer, type ServerProcess } from "../helpers/http-server-process.ts";

export type TransportKind = "stdio" | "http";

export interface ChaosConnection {
  transport: Transport;
  /** Stops the HTTP server process (stdio servers are ended by closing the transport). */
  stop(): Promise<void>;
}

/** `bun fixtures/chaos-server.ts --http <flags>`, once it listens. */
export function startChaosHttp(flags: string[]): Promise<ServerProcess> {
  return spawnServer([BUN, CHAOS_SERVER, "--http", ...flags], { ready: /chaos listening on port (\d+)/, path: "/mcp" });
}

export async function chaosTransport(kind: TransportKind, flags: string[]): Promise<ChaosConnection> {
  if (kind === "stdio") {
    const transport = new StdioTransport({ command: BUN, args: [CHAOS_SERVER, ...flags], env: process.env as Record<string, string> });
    return { transport, stop: async () => {} };
  }
  const server = await startChaosHttp(flags);
  return { transport: new HttpTransport({ url: server.url, headers: {} }), stop: () => server.stop() };
}

/** Resolves or rejects like `promise`, or rejects with "hung" once `ms` have passed. Leaves no timer. */
export async function within<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: Timer | undefined;
  const watchdog = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`HUNG: ${what} did not end within ${ms} ms`)), ms);
  });
  try {
    return await Promise.race([promise, watchdog]);
  } finally {
    clearTimeout(timer);
  }
}
