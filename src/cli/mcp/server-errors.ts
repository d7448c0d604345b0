import { log } from "../../log.ts";
import type { ServerStatus } from "../../mcp/index.ts";
import { McpError } from "../../mcp/light-index.ts";
import { ErrorCode } from "../../mcp/protocol.ts";
import { CliError } from "../../terminal/cli-error.ts";
import { firstLine } from "../../terminal/terminal-text.ts";

/**
 * The one table of what a server's state means for a command that named it: nothing (connected),
 * or the command's error with its exit code. A sign-in only the user can give is exit 5; a server
 * that could not be reached exit 3, with the last lines of its stderr; an entry the command may not
 * start (invalid, disabled, unapproved, denied) exit 2: nothing was sent.
 */
export function cliErrorFor(status: ServerStatus): CliError | undefined;
/**
 * A request that failed, as the command's error: a sign-in only the user can give is exit 5, a
 * feature the server does not offer exit 2, anything else the server said (an unknown URI, a read
 * that failed, a timeout, a crash) exit 3 with its message after `what` ("calling 'echo' on 'echo'").
 * Anything that is no `McpError` is returned as it is (a bug: exit 4).
 */
export function cliErrorFor(error: unknown, what: string): unknown;
export function cliErrorFor(failure: unknown, what?: string): unknown {
  return what === undefined ? statusError(failure as ServerStatus) : requestError(failure, what);
}

function statusError(status: ServerStatus): CliError | undefined {
  const { name, source } = status;
  switch (status.state) {
    case "connected":
      return undefined;
    case "needs-auth":
      return CliError.needsAuth(status.reason);
    case "failed": {
      const stderr = status.stderr.length ? `\n${status.stderr.join("\n")}` : "";
      return CliError.unavailable(`cannot connect to MCP server '${name}': ${status.reason}${stderr}`);
    }
    case "pending":
      return CliError.unavailable(`cannot connect to MCP server '${name}': not connected`);
    case "invalid":
      return CliError.usage(`server '${name}' has an invalid entry in ${source}: ${status.reason}`);
    case "disabled":
      return CliError.usage(`server '${name}' is disabled in ${source}`);
    case "needs-approval":
      return CliError.usage(`server '${name}' comes from ${source} and is not approved yet; check it (cat-code mcp get ${name}), then run: cat-code mcp approve ${name}`);
    case "denied":
      return CliError.usage(`server '${name}' from ${source} was denied; to use it, run: cat-code mcp approve ${name}`);
  }
}

// The only place the CLI reads McpError's flags (here and in isUnimplemented below).
function requestError(error: unknown, what: string): unknown {
  if (!(error instanceof McpError)) return error;
  if (error.kind === "needs-auth") return CliError.needsAuth(error.message);
  if (error.kind === "not-offered") return CliError.usage(error.message);
  return CliError.unavailable(`${what} failed: ${error.message}`);
}

/** The server answered that it has no such method: not our own refusal of a feature it does not offer. */
export function isUnimplemented(error: unknown): error is McpError {
  return error instanceof McpError && error.code === ErrorCode.MethodNotFound && error.kind !== "not-offered";
}

/**
 * The line on stderr for a server a command about every server skips: one that waits for approval,
 * for a sign-in, or that failed (`mcp list` says more). Invalid, disabled and denied servers are
 * skipped without a word: they were never meant to start.
 */
export function statusWarning(status: ServerStatus): string | undefined {
  switch (status.state) {
    case "needs-approval":
      return `MCP server '${status.name}' of ${status.source} is not approved yet (cat-code mcp approve ${status.name})`;
    case "needs-auth":
      return firstLine(status.reason);
    case "failed":
      return `MCP server '${status.name}' failed: ${firstLine(status.reason)} (see cat-code mcp list)`;
    default:
      return undefined;
  }
}

/**
 * The statuses after a connect, said once for every command: with one server named (`only`), its
 * problem is the command's error; otherwise each problem is a line on stderr and the command goes
 * on with the servers that connected.
 */
export function reportStatuses(statuses: ServerStatus[], only: boolean): void {
  for (const status of statuses) {
    if (only) {
      const error = cliErrorFor(status);
      if (error) throw error;
      continue;
    }
    const warning = statusWarning(status);
    if (warning) log.warn(warning);
  }
}
