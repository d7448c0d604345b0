import { McpError } from "../mcp-error.ts";
import { ErrorCode, type JsonRpcResponse, type RequestId } from "../protocol.ts";

/**
 * The JSON-RPC response to a peer's request from what answering it gave: the result, or the error
 * thrown with its code and data (an McpError's; -32603 for anything else). A request is never left
 * unanswered: the rpc layer answers a server's requests with it, `mcp serve` its clients'.
 */
export async function replyTo(id: RequestId, answering: Promise<unknown>): Promise<JsonRpcResponse> {
  try {
    return { jsonrpc: "2.0", id, result: (await answering) ?? {} };
  } catch (error) {
    const code = error instanceof McpError && error.code !== undefined ? error.code : ErrorCode.InternalError;
    const data = error instanceof McpError ? error.data : undefined;
    return { jsonrpc: "2.0", id, error: { code, message: (error as Error).message, ...(data === undefined ? {} : { data }) } };
  }
}
