/** A JSON Schema object describing a tool's input, passed to the model as is. */
export type JsonSchema = Record<string, unknown>;

/** What a tool gives back to the model: text, and whether it is an error. */
export interface ToolResult {
  content: string;
  isError: boolean;
}

export interface ToolContext {
  /** Aborted when the user cancels the turn. */
  signal?: AbortSignal;
}

/**
 * Everything the agent can call. Built-in tools and MCP tools both implement it, and nothing
 * above this interface can tell them apart.
 */
export interface Tool {
  readonly name: string;
  readonly description: string;
  readonly inputSchema: JsonSchema;
  /** Read-only tools run without asking and side by side. */
  readonly isReadOnly: boolean;
  /** Never throws: every failure is a result with `isError: true`. */
  execute(input: Record<string, unknown>, context?: ToolContext): Promise<ToolResult>;
}
