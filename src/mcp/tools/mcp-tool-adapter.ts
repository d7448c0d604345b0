import { ImageBudget } from "../../agent/image-budget.ts";
import type { ImageBlock } from "../../agent/prompt-blocks.ts";
import type { JsonSchema, Tool, ToolContext, ToolOrigin, ToolProgress, ToolResult } from "../../agent/tool.ts";
import type { McpClient } from "../client/mcp-client.ts";
import { isCancellation } from "../mcp-error.ts";
import type { CallToolResult, ToolDefinition } from "../protocol.ts";
import { describeContentBlock, flattenContent } from "./flatten-content.ts";
import { sanitizeNamePart } from "./tool-names.ts";

/**
 * One remote tool as a local `Tool`. It holds its own client, so routing a call is a field access,
 * not a lookup (seed §3.12): this is the only bridge between the agent and MCP.
 */
export class McpToolAdapter implements Tool {
  readonly description: string;
  readonly inputSchema: JsonSchema;
  readonly isReadOnly: boolean;
  /** A server's tools may wait behind the tool search until the model asks for them. */
  readonly deferrable = true;
  readonly origin: ToolOrigin;

  constructor(
    readonly name: string,
    readonly serverName: string,
    readonly definition: ToolDefinition,
    private readonly client: McpClient,
  ) {
    this.description = describeTool(definition);
    this.inputSchema = definition.inputSchema as JsonSchema;
    // Annotations come from the server and are hints, not promises (the MCP spec says not to trust
    // them): readOnlyHint may let calls run side by side, never skip the permission question.
    this.isReadOnly = definition.annotations?.readOnlyHint === true;
    this.origin = { server: serverName, namePrefix: `mcp__${sanitizeNamePart(serverName)}__` };
  }

  async needsPermission(): Promise<boolean> {
    return true;
  }

  async execute(input: Record<string, unknown>, context: ToolContext = {}): Promise<ToolResult> {
    // An update that arrives after the result (a late notification) would redraw a finished call.
    let running = true;
    const { onProgress } = context;
    const progress = onProgress && ((update: ToolProgress) => running && onProgress(update));
    try {
      const result = await this.client.callTool(this.definition.name, input, { signal: context.signal, onProgress: progress });
      const { content, images } = modelContent(result);
      return { content, isError: result.isError, ...(images.length ? { images } : {}) };
    } catch (error) {
      const reason = isCancellation(error) ? "cancelled by the user" : (error as Error).message;
      return { content: `Error: MCP tool '${this.name}' failed: ${reason}`, isError: true };
    } finally {
      running = false;
    }
  }
}

/** What a tool is said to do: its description, else its title. */
export function describeTool(definition: ToolDefinition): string {
  return definition.description ?? definition.title ?? definition.annotations?.title ?? "";
}

/**
 * A tool result as the model gets it: the text (the tool runner cuts it past the MCP output limit, as
 * every tool's, and saves the whole), with each image
 * the API can take sent as an image and standing in the text as one line (`[image 64×64 png]`);
 * images it cannot take, and every other kind of block, are described in the text instead.
 */
function modelContent(result: CallToolResult, budget = new ImageBudget()): { content: string; images: ImageBlock[] } {
  if (!result.content.some((block) => block.type === "image")) return { content: flattenContent(result), images: [] };
  const images: ImageBlock[] = [];
  const lines = result.content.map((block) => {
    if (block.type !== "image" || block.data === undefined) return describeContentBlock(block);
    const verdict = budget.take(block.data, block.mimeType);
    if (verdict.image) images.push(verdict.image);
    return verdict.line;
  });
  return { content: lines.join("\n"), images };
}
