import { expect } from "bun:test";
import { McpError } from "../../src/mcp/mcp-error.ts";

/** The McpError a promise rejects with; fulfilling, or rejecting with anything else, fails the test. */
export async function failure(promise: Promise<unknown>): Promise<McpError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(McpError);
  return error as McpError;
}
