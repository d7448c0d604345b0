import { McpError } from "../mcp-error.ts";
import { ErrorCode, JsonRpcErrorObject } from "../protocol.ts";
import * as v from "valibot";

/** How much of an unexpected body goes into an error message. */
const BODY_EXCERPT_BYTES = 200;
/** Enough to hold any JSON-RPC error body a server would send; larger bodies are not read whole. */
const ERROR_BODY_LIMIT = 64 * 1024;

/**
 * A fetch that never got an answer: connection refused, unknown host, TLS failure. The client turns
 * a failed connect into FAILED with this message, so it names the url and the cause, never headers.
 */
export function unreachable(url: string, error: unknown): McpError {
  const cause = error instanceof Error ? error.message : String(error);
  return new McpError(ErrorCode.ConnectionClosed, `cannot reach ${url}: ${cause}`, { cause: error });
}

/**
 * The error for an HTTP status that is not a success. A JSON-RPC error body is the server's own
 * words and wins; otherwise the status and the start of the body (an HTML error page, say).
 */
export async function httpStatusError(url: string, response: Response): Promise<McpError> {
  const body = await readPrefix(response, ERROR_BODY_LIMIT);
  const rpcError = jsonRpcError(body);
  const status = `${response.status}${response.statusText ? ` ${response.statusText}` : ""}`;
  if (response.status === 401 || response.status === 403) {
    // No OAuth yet: a token in the entry's headers is the one way in. The header values are never echoed.
    const detail = rpcError ? ` (${rpcError.message})` : "";
    return new McpError(
      rpcError?.code,
      `the server at ${url} answered ${status}${detail}: set "headers" (for example "Authorization": "Bearer \${TOKEN}") in its entry in mcp.json; OAuth is not supported yet`,
      { data: { status: response.status } },
    );
  }
  if (rpcError) return new McpError(rpcError.code, rpcError.message, { data: rpcError.data });
  const excerpt = decodeExcerpt(body);
  return new McpError(
    undefined,
    `the server at ${url} answered ${status}${excerpt ? `: ${excerpt}` : " with an empty body"}`,
    { data: { status: response.status } },
  );
}

/** A JSON-RPC error object in a body, with or without the envelope; undefined for anything else. */
function jsonRpcError(body: Uint8Array): JsonRpcErrorObject | undefined {
  let value: unknown;
  try {
    value = JSON.parse(new TextDecoder().decode(body));
  } catch {
    return undefined;
  }
  const candidate = typeof value === "object" && value !== null && "error" in value ? value.error : undefined;
  return v.is(JsonRpcErrorObject, candidate) ? candidate : undefined;
}

function decodeExcerpt(body: Uint8Array): string {
  const text = new TextDecoder("utf-8", { fatal: false }).decode(body.subarray(0, BODY_EXCERPT_BYTES)).trim();
  // A cut through a multi-byte character leaves a replacement character: drop it rather than show it.
  const clean = text.replace(/\uFFFD$/, "").replace(/\s+/g, " ");
  return body.length > BODY_EXCERPT_BYTES ? `${clean}…` : clean;
}

/** Reads at most `limit` bytes of a body and lets the rest go, so a huge error page is not downloaded. */
async function readPrefix(response: Response, limit: number): Promise<Uint8Array> {
  if (!response.body) return new Uint8Array();
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    while (size < limit) {
      const { done, value } = await reader.read();
      if (done) break;
      chunks.push(value);
      size += value.length;
    }
  } catch {
    // A body cut short still explains the status with what arrived.
  } finally {
    reader.cancel().catch(() => {});
  }
  const bytes = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.length;
  }
  return bytes;
}
