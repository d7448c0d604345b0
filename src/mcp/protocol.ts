/**
 * The part of the Model Context Protocol that cat-code speaks: JSON-RPC 2.0 envelopes, the
 * handshake, tools, resources, prompts and completions (list pages: client/paged-list.ts).
 * Schemas are parsed once at the wire; inside, trust the types.
 */
import * as v from "valibot";
import { lazySchema } from "../system/lazy-schema.ts";
import { keepingEveryKey, WholeObject } from "../system/whole-object.ts";

/** The version we ask for in `initialize`. */
export const LATEST_PROTOCOL_VERSION = "2025-11-25";

/** Versions a server may answer with; anything else fails that server. */
export const SUPPORTED_PROTOCOL_VERSIONS: readonly string[] = [
  "2025-11-25",
  "2025-06-18",
  "2025-03-26",
  "2024-11-05",
];

/** JSON-RPC error codes used on the wire. */
export const ErrorCode = {
  ParseError: -32700,
  InvalidRequest: -32600,
  MethodNotFound: -32601,
  InvalidParams: -32602,
  InternalError: -32603,
  /** Not from the spec: the connection ended (process exit, stream closed). */
  ConnectionClosed: -32000,
  /** Not from the spec: the request took longer than its timeout. */
  RequestTimeout: -32001,
  /** Not from the spec (LSP's code): the caller gave the request up (Ctrl-C, a cancelled turn). */
  RequestCancelled: -32800,
  /** Not from the spec: the server's result does not have the shape the method promises. */
  InvalidResult: -32801,
} as const;

export const RequestId = v.union([v.string(), v.number()]);
export type RequestId = v.InferOutput<typeof RequestId>;

export const JsonRpcRequest = lazySchema(() => v.object({
  jsonrpc: v.literal("2.0"),
  id: RequestId,
  method: v.string(),
  params: v.optional(v.unknown()),
}));
export type JsonRpcRequest = v.InferOutput<typeof JsonRpcRequest>;

export const JsonRpcNotification = lazySchema(() => v.object({
  jsonrpc: v.literal("2.0"),
  method: v.string(),
  params: v.optional(v.unknown()),
}));
export type JsonRpcNotification = v.InferOutput<typeof JsonRpcNotification>;

export const JsonRpcErrorObject = v.object({
  code: v.number(),
  message: v.string(),
  data: v.optional(v.unknown()),
});
export type JsonRpcErrorObject = v.InferOutput<typeof JsonRpcErrorObject>;

export const JsonRpcResponse = lazySchema(() => v.union([
  v.object({ jsonrpc: v.literal("2.0"), id: RequestId, result: v.unknown() }),
  v.object({ jsonrpc: v.literal("2.0"), id: v.nullable(RequestId), error: JsonRpcErrorObject }),
]));
export type JsonRpcResponse = v.InferOutput<typeof JsonRpcResponse>;

export type JsonRpcMessage = JsonRpcRequest | JsonRpcNotification | JsonRpcResponse;

/** The kinds a decoded line can be; `invalid` is anything that is JSON but not JSON-RPC 2.0. */
export type ClassifiedMessage =
  | { kind: "request"; message: JsonRpcRequest }
  | { kind: "notification"; message: JsonRpcNotification }
  | { kind: "response"; message: JsonRpcResponse }
  | { kind: "invalid"; reason: string };

/**
 * Sorts a parsed JSON value into a JSON-RPC message kind. Cheap checks on the envelope only:
 * results are validated later by whoever asked for them.
 */
export function classifyMessage(value: unknown): ClassifiedMessage {
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    return { kind: "invalid", reason: "not a JSON object" };
  }
  const m = value as Record<string, unknown>;
  if (m.jsonrpc !== "2.0") return { kind: "invalid", reason: 'missing "jsonrpc": "2.0"' };
  const hasId = typeof m.id === "string" || typeof m.id === "number";
  if (typeof m.method === "string") {
    return hasId
      ? { kind: "request", message: m as JsonRpcRequest }
      : { kind: "notification", message: m as JsonRpcNotification };
  }
  if ("result" in m && hasId) return { kind: "response", message: m as JsonRpcResponse };
  if ("error" in m && v.is(JsonRpcErrorObject, m.error) && (hasId || m.id === null)) {
    return { kind: "response", message: m as JsonRpcResponse };
  }
  return { kind: "invalid", reason: "neither a request, a notification nor a response" };
}

export const Implementation = v.looseObject({
  name: v.string(),
  version: v.optional(v.string()),
  title: v.optional(v.string()),
});
export type Implementation = v.InferOutput<typeof Implementation>;

export const InitializeResult = lazySchema(() => v.looseObject({
  protocolVersion: v.string(),
  capabilities: v.optional(WholeObject, {}),
  serverInfo: v.optional(Implementation),
  instructions: v.optional(v.string()),
}));
export type InitializeResult = v.InferOutput<typeof InitializeResult>;

export const ToolAnnotations = v.looseObject({
  title: v.optional(v.string()),
  readOnlyHint: v.optional(v.boolean()),
  destructiveHint: v.optional(v.boolean()),
  idempotentHint: v.optional(v.boolean()),
  openWorldHint: v.optional(v.boolean()),
});

export const ToolDefinition = v.looseObject({
  name: v.string(),
  title: v.optional(v.string()),
  description: v.optional(v.string()),
  inputSchema: v.optional(v.looseObject({ type: v.optional(v.string()) }), { type: "object" }),
  annotations: v.optional(ToolAnnotations),
});
export type ToolDefinition = v.InferOutput<typeof ToolDefinition>;

/** A content block; only the fields we render are named, the rest pass through (every key: see keepingEveryKey). */
export const ContentBlock = keepingEveryKey(v.looseObject({
  type: v.string(),
  text: v.optional(v.string()),
  data: v.optional(v.string()),
  mimeType: v.optional(v.string()),
  uri: v.optional(v.string()),
  name: v.optional(v.string()),
  resource: v.optional(
    keepingEveryKey(v.looseObject({ uri: v.optional(v.string()), text: v.optional(v.string()), blob: v.optional(v.string()), mimeType: v.optional(v.string()) })),
  ),
}));
export type ContentBlock = v.InferOutput<typeof ContentBlock>;

/** Printed whole by `mcp call --raw`: every key the server sent is kept (see keepingEveryKey). */
export const CallToolResult = keepingEveryKey(v.looseObject({
  content: v.optional(v.array(ContentBlock), []),
  structuredContent: v.optional(v.unknown()),
  isError: v.optional(v.boolean(), false),
}));
export type CallToolResult = v.InferOutput<typeof CallToolResult>;

/** One resource a server lists (`resources/list`); each is checked on its own, so one bad entry costs only itself. */
export const Resource = lazySchema(() => v.looseObject({
  uri: v.string(),
  name: v.string(),
  title: v.optional(v.string()),
  description: v.optional(v.string()),
  mimeType: v.optional(v.string()),
  size: v.optional(v.number()),
}));
export type Resource = v.InferOutput<typeof Resource>;

/** A family of resources named by an RFC 6570 template (`resources/templates/list`). */
export const ResourceTemplate = lazySchema(() => v.looseObject({
  uriTemplate: v.string(),
  name: v.string(),
  title: v.optional(v.string()),
  description: v.optional(v.string()),
  mimeType: v.optional(v.string()),
}));
export type ResourceTemplate = v.InferOutput<typeof ResourceTemplate>;

/** One part of what `resources/read` returns: text, or base64 `blob` for binary content. */
export const ResourceContents = lazySchema(() => v.looseObject({
  uri: v.string(),
  mimeType: v.optional(v.string()),
  text: v.optional(v.string()),
  blob: v.optional(v.string()),
}));
export type ResourceContents = v.InferOutput<typeof ResourceContents>;

export const ReadResourceResult = lazySchema(() => v.looseObject({ contents: v.array(ResourceContents) }));
export type ReadResourceResult = v.InferOutput<typeof ReadResourceResult>;

export const PromptArgument = lazySchema(() => v.looseObject({
  name: v.string(),
  title: v.optional(v.string()),
  description: v.optional(v.string()),
  required: v.optional(v.boolean()),
}));
export type PromptArgument = v.InferOutput<typeof PromptArgument>;

/** One prompt a server lists (`prompts/list`); each is checked on its own. */
export const Prompt = lazySchema(() => v.looseObject({
  name: v.string(),
  title: v.optional(v.string()),
  description: v.optional(v.string()),
  arguments: v.optional(v.array(PromptArgument)),
}));
export type Prompt = v.InferOutput<typeof Prompt>;

export const PromptMessage = lazySchema(() => v.looseObject({ role: v.picklist(["user", "assistant"]), content: ContentBlock }));
export type PromptMessage = v.InferOutput<typeof PromptMessage>;

export const GetPromptResult = lazySchema(() => v.looseObject({ description: v.optional(v.string()), messages: v.array(PromptMessage) }));
export type GetPromptResult = v.InferOutput<typeof GetPromptResult>;

/** What `completion/complete` is asked about: a prompt's argument, or a resource template's variable. */
export type CompletionReference = { type: "ref/prompt"; name: string } | { type: "ref/resource"; uri: string };

export const Completion = lazySchema(() => v.looseObject({
  values: v.array(v.string()),
  total: v.optional(v.number()),
  hasMore: v.optional(v.boolean()),
}));
export type Completion = v.InferOutput<typeof Completion>;
export const CompleteResult = lazySchema(() => v.looseObject({ completion: Completion }));
