import { describe, expect, test } from "bun:test";
import { MAX_ERROR_MESSAGE_CHARS, McpError } from "../../../../src/mcp/mcp-error.ts";
import { PendingRequests } from "../../../../src/mcp/rpc/pending-requests.ts";

async function errorFor(message: string): Promise<McpError> {
  const pending = new PendingRequests();
  const { id, answer } = pending.register("tools/call");
  pending.settle({ jsonrpc: "2.0", id, error: { code: -32603, message } });
  return (await answer.catch((e: unknown) => e)) as McpError;
}

describe("PendingRequests: a server's error", () => {
  test("keeps its code and a message of ordinary length whole", async () => {
    const error = await errorFor("no such file: a.txt");
    expect([error.code, error.message]).toEqual([-32603, "no such file: a.txt"]);
  });

  test("a 5 MB message is cut where it enters, saying how much was cut", async () => {
    const error = await errorFor("e".repeat(5_000_000));
    expect(error.message).toBe(`${"e".repeat(MAX_ERROR_MESSAGE_CHARS)}… (${(5_000_000 - MAX_ERROR_MESSAGE_CHARS).toLocaleString("en-US")} more characters not shown)`);
  });
});
