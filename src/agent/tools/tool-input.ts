import * as v from "valibot";
import { describeIssue } from "../../system/schema-issue.ts";
import type { ToolResult } from "../tool.ts";

/**
 * The model's tool input is an edge like argv or a file: parse it once against the tool's valibot
 * schema. A mismatch becomes an error result that says which field was wrong, so the model can
 * correct itself on the next turn instead of the tool failing somewhere deep inside.
 */
export function parseToolInput<const Schema extends v.GenericSchema>(
  toolName: string,
  schema: Schema,
  input: unknown,
): { ok: true; value: v.InferOutput<Schema> } | { ok: false; result: ToolResult } {
  const parsed = v.safeParse(schema, input);
  if (parsed.success) return { ok: true, value: parsed.output };
  const problems = parsed.issues.map(describeIssue);
  return { ok: false, result: errorResult(`invalid input for ${toolName}: ${problems.join("; ")}`) };
}

export function errorResult(message: string): ToolResult {
  return { content: `Error: ${message}`, isError: true };
}

export function okResult(content: string): ToolResult {
  return { content, isError: false };
}
