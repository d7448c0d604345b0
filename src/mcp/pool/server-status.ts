import type { McpClient } from "../client/mcp-client.ts";
import type { Era } from "../client/version-negotiation.ts";
import { redactSecrets } from "../config/entry-secrets.ts";
import { describeServer, type ConfigScope, type ServerConfig, type ServerEntry } from "../config/server-config.ts";
import type { Implementation, ToolDefinition } from "../protocol.ts";
import type { Transport } from "../transport/transport.ts";

/** How many stderr lines a failure shows when the reason does not already carry them. */
const STDERR_LINES_IN_STATUS = 10;

/** What `mcp list` and `/mcp` render: one per configured server, data only. */
export type ServerStatus = {
  name: string;
  scope: ConfigScope;
  /** The file the entry came from. */
  source: string;
  /** `stdio: <command line>` or `http: <url>`; empty for an entry too broken to say. */
  description: string;
  /**
   * Why the server last failed or went away, kept after it is connected again (a restart, a
   * reconnect), so `/mcp` can still say what happened. Absent: it never failed in this pool.
   */
  lastError?: string;
} & (
  | { state: "pending" }
  | {
      state: "connected";
      tools: ToolDefinition[];
      serverInfo: Implementation | undefined;
      protocolVersion: string;
      /** Which generation it speaks (modern: 2026-07-28, stateless; legacy: the handshake); the pool always sets it. */
      era?: Era;
      /** How long the connect took (start, handshake, tools/list), in milliseconds of the pool's clock. */
      connectMs?: number;
    }
  /** `lost`: it was connected and went away by itself (a crash, a dropped connection), not a failed connect. */
  | { state: "failed"; reason: string; stderr: string[]; lost?: boolean }
  /** An HTTP server that wants an OAuth sign-in only the user can give; `reason` says how. */
  | { state: "needs-auth"; reason: string }
  | { state: "invalid"; reason: string }
  | { state: "disabled" }
  /** A project entry the user has not approved in this form: nothing is spawned or contacted. */
  | { state: "needs-approval" }
  /** A project entry the user refused: never started. */
  | { state: "denied" }
);

export type ServerState = ServerStatus["state"];

/** Where a server stands before any connect: pending, or why it will not be started. */
export function initialStatus(entry: ServerEntry): ServerStatus {
  const base = { name: entry.name, scope: entry.scope, source: entry.source };
  if (!entry.ok) return { ...base, description: "", state: "invalid", reason: entry.error };
  const description = describeServer(entry.config, entry.raw);
  if (entry.config.disabled) return { ...base, description, state: "disabled" };
  return { ...base, description, state: entry.trust ?? "pending" };
}

/** The entry's `includeTools` and `excludeTools` applied to what the server lists. */
export function filterTools(tools: ToolDefinition[], config: ServerConfig): ToolDefinition[] {
  const { includeTools, excludeTools } = config;
  return tools.filter(
    (tool) => (!includeTools || includeTools.includes(tool.name)) && !excludeTools?.includes(tool.name),
  );
}

/**
 * Why a server failed, as every front end and the model's note show it: the entry's secrets and
 * the credentials its transport sent masked (the client's `secretValues`), since a lower layer's
 * error may quote the expanded url or a header, and a server may echo one (the client masked its
 * errors already; stderr not).
 */
export function failureOf(client: McpClient, transport: Transport, error: Error): { reason: string; stderr: string[] } {
  const secrets = client.secretValues();
  return { reason: redactSecrets(error.message, secrets), stderr: stderrFor(transport, error.message).map((line) => redactSecrets(line, secrets)) };
}

/** The server's last stderr lines (a transport that has them), unless the reason quotes them already (an exit does): said once. */
function stderrFor(transport: Transport, reason: string): string[] {
  const stderr = transport.stderrTail?.(STDERR_LINES_IN_STATUS) ?? [];
  return reason.includes(stderr.at(-1) ?? "\0") ? [] : stderr;
}

/** What a status carries into the next one (a restart, a reconnect, `/mcp disable`) of why the server last failed. */
export function lastErrorOf(status: ServerStatus): { lastError?: string } {
  // A failed status's reason is its last error; it is carried into the next status as lastError.
  if (status.state === "failed") return { lastError: status.reason };
  return status.lastError === undefined ? {} : { lastError: status.lastError };
}
