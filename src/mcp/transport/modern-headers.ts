import { encodeHeaderValue } from "../header-value.ts";
import type { JsonRpcMessage } from "../protocol.ts";

/** The methods whose target is named in `Mcp-Name`, and the param that names it. */
const NAMED_BY: Record<string, "name" | "uri"> = { "tools/call": "name", "prompts/get": "name", "resources/read": "uri" };

/**
 * The headers a 2026-07-28 POST carries beside `MCP-Protocol-Version`: `Mcp-Method` (the method)
 * and, on a tool call, a prompt or a resource read, `Mcp-Name` (the name or URI), so a server or a
 * gateway can route without reading the body. Values that are not plain header text go in the
 * revision's base64 form. A reply of ours (no method) carries neither.
 */
export function modernHeaders(message: JsonRpcMessage): Record<string, string> {
  if (!("method" in message)) return {};
  const headers: Record<string, string> = { "Mcp-Method": encodeHeaderValue(message.method) };
  const field = NAMED_BY[message.method];
  const params = "params" in message ? message.params : undefined;
  const name = field && typeof params === "object" && params !== null ? (params as Record<string, unknown>)[field] : undefined;
  if (typeof name === "string") headers["Mcp-Name"] = encodeHeaderValue(name);
  return headers;
}
