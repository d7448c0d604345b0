import * as v from "valibot";
import { McpError } from "../mcp-error.ts";
import { ErrorCode } from "../protocol.ts";
import { exceedsDepth, MAX_RESULT_DEPTH } from "../../system/json-depth.ts";

/**
 * Validates what a server answered; a malformed answer is the server's fault, named as such. An
 * answer nested deeper than `maxDepth` is refused before anything walks it recursively.
 */
export function parseResult<TSchema extends v.GenericSchema>(
  schema: TSchema,
  value: unknown,
  method: string,
  maxDepth = MAX_RESULT_DEPTH,
): v.InferOutput<TSchema> {
  if (exceedsDepth(value, maxDepth)) {
    throw new McpError(ErrorCode.InvalidResult, `the server sent a ${method} result nested deeper than ${maxDepth} levels; it was refused`);
  }
  const parsed = v.safeParse(schema, value);
  if (parsed.success) return parsed.output;
  const issue = parsed.issues[0];
  const path = issue ? v.getDotPath(issue) : null;
  throw new McpError(
    ErrorCode.InvalidResult,
    `the server sent an invalid ${method} result${path ? ` at "${path}"` : ""}: ${issue?.message ?? "unknown problem"}`,
  );
}
