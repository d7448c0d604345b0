import { McpError } from "../mcp/light-index.ts";
import { ErrorCode, type JsonRpcResponse, type RequestId } from "../mcp/protocol.ts";

/**
 * The JSON-RPC response to a client's request from what answering it gave: the result, or the
 * error thrown with its code and data (an McpError's; -32603 for anything else), as the rpc layer
 * answers a peer's requests over stdio.
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
