import * as v from "valibot";
import { McpError } from "../mcp-error.ts";
import { ErrorCode } from "../protocol.ts";

/** Validates what a server answered; a malformed answer is the server's fault, named as such. */
export function parseResult<TSchema extends v.GenericSchema>(
  schema: TSchema,
  value: unknown,
  method: string,
): v.InferOutput<TSchema> {
  const parsed = v.safeParse(schema, value);
  if (parsed.success) return parsed.output;
  const issue = parsed.issues[0];
  const path = issue ? v.getDotPath(issue) : null;
  throw new McpError(
    ErrorCode.InvalidResult,
    `the server sent an invalid ${method} result${path ? ` at "${path}"` : ""}: ${issue?.message ?? "unknown problem"}`,
  );
}
