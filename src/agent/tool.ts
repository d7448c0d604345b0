import type { DocumentBlock, ImageBlock } from "./prompt-blocks.ts";

/** A JSON Schema object describing a tool's input, passed to the model as is. */
export type JsonSchema = Record<string, unknown>;

/** What a tool gives back to the model: text, images (an MCP tool's, a read resource's), and whether it is an error. */
export interface ToolResult {
  content: string;
  isError: boolean;
  /** Sent to the model after the text as image blocks of the tool_result. */
  images?: ImageBlock[];
  /** Sent after the images as document blocks (a PDF read_file read). */
  documents?: DocumentBlock[];
}

/** How far a running tool has got, as it reports it: `progress` of `total` (when known), and what it is doing. */
export interface ToolProgress {
  progress: number;
  total?: number;
  message?: string;
}

export interface ToolContext {
  /** Aborted when the user cancels the turn; every tool stops promptly when it is. */
  signal?: AbortSignal;
  /** Hears the tool's progress while it runs (an MCP server's `notifications/progress`); never after it returns. */
  onProgress?: (progress: ToolProgress) => void;
  /** The user's allow rules that cover this call (see PermissionGate.allowedBy); empty or absent when none does. */
  allowedBy?: readonly string[];
}

/**
 * What the user sees before approving a call, whole (the REPL pages it, never cuts it):
 * a command line, a change to a file as a unified diff, or the arguments as they are.
 */
export type ToolCallPreview =
  | { kind: "command"; command: string; rest: Record<string, unknown> }
  | { kind: "file-change"; path: string; diff: string; note?: string }
  | { kind: "arguments"; input: Record<string, unknown> };

/**
 * Where a tool comes from when it is not cat-code's own: a server, and the prefix its tools' names
 * share there (so a list of names can say the prefix once).
 */
export interface ToolOrigin {
  server: string;
  namePrefix: string;
}

/**
 * Everything the agent can call. Built-in tools and MCP tools both implement it, and nothing
 * above this interface can tell them apart.
 */
export interface Tool {
  readonly name: string;
  readonly description: string;
  readonly inputSchema: JsonSchema;
  /**
   * Changes nothing, so read-only calls next to each other may run side by side. It is not by
   * itself a reason to skip the permission question: an MCP server's readOnlyHint is only a hint.
   */
  readonly isReadOnly: boolean;
  /**
   * May be left out of requests until the model searches for it (tool search, request-tools.ts):
   * a server's tools are; cat-code's own never are.
   */
  readonly deferrable?: boolean;
  /** The server it comes from; absent for cat-code's own tools. */
  readonly origin?: ToolOrigin;
  /**
   * Whether this call needs the user's approval first. Absent means it always does: only a tool
   * that can vouch for the call itself (a built-in reading inside the project) runs unasked.
   */
  needsPermission?(input: Record<string, unknown>): Promise<boolean>;
  /** How to show this call when asking; absent means the arguments as they are. Never throws. */
  preview?(input: Record<string, unknown>, context?: ToolContext): Promise<ToolCallPreview>;
  /** Never throws: every failure is a result with `isError: true`. */
  execute(input: Record<string, unknown>, context?: ToolContext): Promise<ToolResult>;
}
