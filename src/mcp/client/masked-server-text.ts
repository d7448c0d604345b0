import { redactSecrets } from "../config/entry-secrets.ts";
import type { CallToolResult } from "../protocol.ts";

/**
 * A server may quote back what it was sent: the `Authorization` or `X-Api-Key` it received, in an
 * error or a tool's error result. The client masks them where that text leaves it, so every front
 * end (mcp call, mcp list, the REPL, the model's note) gets it masked, rather than each front end
 * remembering to. `secrets` comes from credentialForms.
 */

/** Masks the secrets in an error's message, in place: the error keeps its class, code and fields. */
export function maskError(error: unknown, secrets: readonly string[]): void {
  if (error instanceof Error && secrets.length > 0) error.message = redactSecrets(error.message, secrets);
}

/** A tool's error result with its text blocks masked; any other result as it is (a tool's output is its data). */
export function maskErrorResult(result: CallToolResult, secrets: readonly string[]): CallToolResult {
  if (!result.isError || secrets.length === 0) return result;
  return {
    ...result,
    content: result.content.map((block) => (block.type === "text" && typeof block.text === "string" ? { ...block, text: redactSecrets(block.text, secrets) } : block)),
  };
}
