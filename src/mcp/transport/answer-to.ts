import * as v from "valibot";
import { JsonRpcErrorObject, type RequestId } from "../protocol.ts";

/**
 * Whether a message from a request's stream is the response that ends it. The transport looks no
 * further into messages than this: what a response means is the connection's business. Some
 * servers echo a numeric id back as a string; that still counts.
 */
export function isAnswerTo(value: unknown, id: RequestId): boolean {
  if (typeof value !== "object" || value === null) return false;
  const message = value as Record<string, unknown>;
  if (message.method !== undefined || !("result" in message || "error" in message)) return false;
  return message.id === id || (message.id !== null && String(message.id) === String(id));
}

/**
 * The error of a response whose id is null: the server could not tell which request failed. On a
 * request's own stream it can only be that request's.
 */
export function nullIdError(value: unknown): JsonRpcErrorObject | undefined {
  if (typeof value !== "object" || value === null) return undefined;
  const message = value as Record<string, unknown>;
  if (message.id !== null || message.method !== undefined) return undefined;
  return v.is(JsonRpcErrorObject, message.error) ? message.error : undefined;
}

/** Whether a message (or a batch) holds a request: something that waits for an answer from us. */
export function isRequest(value: unknown): boolean {
  if (Array.isArray(value)) return value.some(isRequest);
  if (typeof value !== "object" || value === null) return false;
  const message = value as Record<string, unknown>;
  return typeof message.method === "string" && (typeof message.id === "string" || typeof message.id === "number");
}
