import { isAbsolute, relative } from "node:path";
import { credentialForms, entrySecretValues, redactSecrets } from "../mcp/config/entry-secrets.ts";
import { launchSummary, shellQuote } from "../mcp/config/launch-summary.ts";
import type { ServerEntry } from "../mcp/config/server-config.ts";
import type { ServerStatus } from "../mcp/index.ts";
import { redactUrl } from "../system/redact-url.ts";
import { launchRows } from "./render-launch.ts";
import { alignColumns, sanitizeForTerminal } from "./terminal-text.ts";

/** What signs in to a server where the table is shown: `cat-code mcp login <name>`, or `/mcp login <name>` in the REPL. */
export type LoginHint = (serverName: string) => string;

export const cliLoginHint: LoginHint = (name) => `cat-code mcp login ${name}`;
/** In the REPL a server is signed in to without leaving it. */
export const replLoginHint: LoginHint = (name) => `/mcp login ${name}`;

/**
 * The command that signs in to a server of these sources: `cat-code mcp login <name>`; for an
 * ad-hoc server `cat-code mcp login --url <url>` (the URL redacted: the hint is printed), and with
 * `--mcp-config` that flag too, since the server is only found there.
 */
export function cliSignInHint(source: { url?: string; "mcp-config"?: string }): LoginHint {
  if (source.url !== undefined) return () => `cat-code mcp login --url ${shellQuote(redactUrl(source.url!))}`;
  const file = source["mcp-config"];
  if (file !== undefined) return (name) => `cat-code mcp login --mcp-config ${shellQuote(file)} ${shellQuote(name)}`;
  return (name) => cliLoginHint(shellQuote(name));
}

/**
 * The seed's status table, one server a line: `echo  CONNECTED  1 tool(s)  (stdio: ./echo-server.sh)`.
 * A server that waits for an OAuth sign-in reads `linear  NEEDS-AUTH  run: cat-code mcp login linear  (http: …)`.
 * A failure's stderr lines follow it, indented. A project server ends with `[project]`; one that waits
 * for approval reads `echo  NEEDS-APPROVAL  (project: .mcp.json)`; given the `entries`, what it would
 * run follows, whole (see render-launch.ts). Used by `mcp list` and the REPL's `/mcp`.
 */
export function renderStatusLines(statuses: ServerStatus[], entries: ServerEntry[] = [], loginHint: LoginHint = cliLoginHint): string[] {
  const rows: string[][] = [];
  const details = new Map<number, string[]>();
  for (const status of statuses) {
    const where = status.description ? `(${status.description})` : `(${status.source})`;
    const cells = [status.name, status.state.toUpperCase()];
    const tag = status.scope === "project" ? "  [project]" : "";
    switch (status.state) {
      case "connected":
        rows.push([...cells, `${status.tools.length} tool(s)  ${where}${tag}`]);
        break;
      case "failed": {
        const [first = "", ...rest] = status.reason.split("\n");
        rows.push([...cells, `${first}${tag}`]);
        details.set(rows.length - 1, [...rest, ...status.stderr.map((line) => `stderr: ${line}`)]);
        break;
      }
      case "needs-auth":
        rows.push([...cells, `run: ${loginHint(status.name)}  ${where}${tag}`]);
        break;
      case "invalid":
        rows.push([...cells, `${status.reason}  (${status.source})${tag}`]);
        break;
      case "pending":
      case "disabled":
        rows.push([...cells, `${where}${tag}`]);
        break;
      case "needs-approval": {
        rows.push([...cells, `(project: ${shortPath(status.source)})`]);
        const entry = entryOf(status, entries);
        if (entry) details.set(rows.length - 1, alignColumns(launchRows(entry)));
        break;
      }
      case "denied":
        rows.push([...cells, `(project: ${shortPath(status.source)})`]);
        break;
    }
  }
  return alignColumns(rows.map((row) => row.map((cell) => sanitizeForTerminal(cell)))).flatMap((line, i) => [
    line,
    ...(details.get(i) ?? []).map((detail) => `    ${sanitizeForTerminal(detail)}`),
  ]);
}

/**
 * The status with the entry's `${VAR}` values masked in its failure reason and stderr lines: a
 * lower layer's error may quote the expanded url. Every status a command shows passes here first.
 */
export function redactStatus(status: ServerStatus, entries: ServerEntry[]): ServerStatus {
  if (status.state !== "failed" && status.state !== "needs-auth") return status;
  const entry = entryOf(status, entries);
  const secrets = entry ? credentialForms(entrySecretValues(entry)) : [];
  if (secrets.length === 0) return status;
  if (status.state === "needs-auth") return { ...status, reason: redactSecrets(status.reason, secrets) };
  return { ...status, reason: redactSecrets(status.reason, secrets), stderr: status.stderr.map((line) => redactSecrets(line, secrets)) };
}

/** The entry a status was made from (a name may be in both the user's file and the project's). */
function entryOf(status: ServerStatus, entries: ServerEntry[]): ServerEntry | undefined {
  return entries.find((entry) => entry.name === status.name && entry.source === status.source);
}

/** A path under the current folder, relative to it (`.mcp.json`); any other path as it is. */
function shortPath(path: string): string {
  const inside = relative(process.cwd(), path);
  return inside && !inside.startsWith("..") && !isAbsolute(inside) ? inside : path;
}

/**
 * The protocol revision a connected server speaks, as people read it: `2026-07-28 (stateless)` for
 * the modern era (no handshake, metadata on every request), `2025-11-25 (handshake)` for the legacy one.
 */
export function revisionText(status: { protocolVersion: string; era?: "modern" | "legacy" }): string {
  return `${status.protocolVersion} (${status.era === "modern" ? "stateless" : "handshake"})`;
}

/**
 * `--json`: the same facts as data. Never carries the user's env or header values; `transport` is
 * the entry's description, from the entry as written (see describeServer). A project server that
 * waits for approval carries, given the `entries`, its entry as written and the warnings about it:
 * what `mcp approve` would let run.
 */
export function statusToJson(status: ServerStatus, entries: ServerEntry[] = []): Record<string, unknown> {
  const base = { name: status.name, scope: status.scope, source: status.source, transport: status.description, state: status.state };
  switch (status.state) {
    case "connected":
      return {
        ...base,
        toolCount: status.tools.length,
        tools: status.tools.map((tool) => tool.name),
        serverInfo: status.serverInfo ?? null,
        protocolVersion: status.protocolVersion,
        era: status.era ?? "legacy",
        revision: revisionText(status),
      };
    case "failed":
      return { ...base, reason: status.reason, stderr: status.stderr };
    case "invalid":
    case "needs-auth":
      return { ...base, reason: status.reason };
    case "needs-approval": {
      const entry = entryOf(status, entries);
      return entry ? { ...base, entry: entry.raw, warnings: launchSummary(entry, "as-written").warnings } : base;
    }
    default:
      return base;
  }
}
