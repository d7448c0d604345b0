import * as v from "valibot";
import { MCP_ERROR_KINDS, McpError } from "../mcp/light-index.ts";
import { ErrorCode } from "../mcp/protocol.ts";
import { CliError } from "../terminal/cli-error.ts";

/**
 * How a failure crosses the keeper's socket: as a JSON-RPC error whose `data` carries what the
 * code and message cannot. An McpError from a server (or from the keeper's connection to it) is
 * rebuilt on the command's side with its code, kind, status, url and data, so a warm command
 * fails exactly as a cold one would; anything else is the keeper's own failure (`keeper`).
 */
export const KeeperErrorData = v.object({
  /** The McpError's own code; absent when it had none (the JSON-RPC code is then InternalError). */
  code: v.optional(v.pipe(v.number(), v.integer())),
  kind: v.optional(v.picklist(MCP_ERROR_KINDS)),
  status: v.optional(v.pipe(v.number(), v.integer())),
  url: v.optional(v.string()),
  data: v.optional(v.unknown()),
  /** Not an McpError: a bug or a refusal of the keeper itself (bad token, bad request). */
  keeper: v.optional(v.literal(true)),
  /** The command's own mistake, said as the cold command says it (arguments the tool's schema refuses): exit 2. */
  usage: v.optional(v.literal(true)),
});
export type KeeperErrorData = v.InferOutput<typeof KeeperErrorData>;

/** The error a keeper handler throws for `error`: the rpc layer answers with its code, message and data. */
export function keeperFailure(error: unknown): McpError {
  if (!(error instanceof McpError)) return keeperRefusal(`the keeper failed: ${(error as Error)?.message ?? String(error)}`, ErrorCode.InternalError);
  if (refusals.has(error)) return error;
  const { code, kind, status, url, data } = error;
  const carried: KeeperErrorData = { code, kind, status, url, data };
  for (const key of Object.keys(carried) as Array<keyof KeeperErrorData>) if (carried[key] === undefined) delete carried[key];
  return new McpError(code ?? ErrorCode.InternalError, error.message, { data: carried });
}

/** A request the keeper will not serve (bad token, bad params, no such server on this socket). */
export function keeperRefusal(message: string, code: number = ErrorCode.InvalidRequest): McpError {
  const refusal = new McpError(code, message, { data: { keeper: true } satisfies KeeperErrorData });
  refusals.add(refusal);
  return refusal;
}

/**
 * A mistake in the command line that the keeper found for the command (argumentProblem): the
 * command fails with this message as a usage error, as it would have cold.
 */
export function keeperUsageError(message: string): McpError {
  const mistake = new McpError(ErrorCode.InvalidParams, message, { data: { usage: true } satisfies KeeperErrorData });
  refusals.add(mistake);
  return mistake;
}

/** The keeper's own refusals, told apart from a server's McpError whose data merely looks like one. */
const refusals = new WeakSet<McpError>();

/**
 * The one place a command rebuilds what the keeper answered: the McpError of the server, the
 * keeper's own failure as an McpError without a code, or the command's own mistake as its usage
 * error. Any other error (the socket went) is kept.
 */
export function errorFromKeeper(error: unknown): unknown {
  if (!(error instanceof McpError) || error.data === undefined) return error;
  const parsed = v.safeParse(KeeperErrorData, error.data);
  if (!parsed.success) return new McpError(undefined, `${error.message} (the connection keeper sent error data that is not its own)`);
  const { code, kind, status, url, data, keeper, usage } = parsed.output;
  if (usage) return CliError.usage(error.message);
  if (keeper) return new McpError(undefined, error.message);
  return new McpError(code, error.message, { kind, status, url, data });
}
