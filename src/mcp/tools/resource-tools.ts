import type { ImageBlock } from "../../agent/prompt-blocks.ts";
import type { JsonSchema, Tool, ToolContext, ToolResult } from "../../agent/tool.ts";
import { limitOutput } from "../../agent/tools/output-limit.ts";
import { cutText } from "../../system/cut-text.ts";
import { formatBytes } from "../../system/format-bytes.ts";
import type { McpClient } from "../client/mcp-client.ts";
import { isCancellation } from "../mcp-error.ts";
import type { Resource, ResourceTemplate } from "../protocol.ts";
import { resourceBlocks } from "./resource-content.ts";

/** The servers to look in, asked at each call (servers come and go): the pool's `serversOffering("resources")`. */
export type ResourceServers = () => Array<{ name: string; client: McpClient }>;

const MAX_DESCRIPTION_CHARS = 200;

/**
 * Both only read, and run side by side with other reads. Listing runs unasked: it sends the server
 * nothing of the model's choosing. A read asks (see ReadMcpResourceTool).
 */
abstract class ResourceTool implements Tool {
  abstract readonly name: string;
  abstract readonly description: string;
  abstract readonly inputSchema: JsonSchema;
  readonly isReadOnly = true;

  constructor(protected readonly servers: ResourceServers) {}

  abstract execute(input: Record<string, unknown>, context?: ToolContext): Promise<ToolResult>;

  /** The servers the input names (all when none), or an error result naming the ones there are. */
  protected pick(server: unknown): Array<{ name: string; client: McpClient }> | ToolResult {
    const servers = this.servers();
    if (server === undefined) return servers;
    const found = servers.filter((s) => s.name === server);
    if (found.length) return found;
    const names = servers.map((s) => s.name).join(", ") || "none";
    return { content: `Error: no connected MCP server named '${cutText(String(server), 100)}' offers resources (servers with resources: ${names})`, isError: true };
  }
}

export class ListMcpResourcesTool extends ResourceTool {
  readonly name = "list_mcp_resources";

  async needsPermission(): Promise<boolean> {
    return false;
  }

  readonly description =
    "Lists the resources (files, documents, records...) that the connected MCP servers offer, with the URI templates they accept. " +
    "Read one with read_mcp_resource.";
  readonly inputSchema = {
    type: "object",
    properties: { server: { type: "string", description: "Only this server's resources (default: every server)" } },
  };

  async execute(input: Record<string, unknown>, { signal }: ToolContext = {}): Promise<ToolResult> {
    if (input.server !== undefined && typeof input.server !== "string") return { content: "Error: server must be a string", isError: true };
    const servers = this.pick(input.server);
    if (!Array.isArray(servers)) return servers;
    if (servers.length === 0) return { content: "No connected MCP server offers resources.", isError: false };
    const sections = await Promise.all(
      servers.map(async ({ name, client }) => {
        const [resources, templates] = await Promise.allSettled([client.listResources({ signal }), client.listResourceTemplates({ signal })]);
        if (resources.status === "rejected") return [`${name}: listing resources failed: ${reason(resources.reason)}`];
        const shown = templates.status === "fulfilled" ? templates.value : [];
        return [
          `${name}: ${resources.value.length} resource(s), ${shown.length} template(s)`,
          ...resources.value.map(resourceLine),
          ...shown.map(templateLine),
          ...(templates.status === "rejected" ? [`  (listing templates failed: ${reason(templates.reason)})`] : []),
        ];
      }),
    );
    return { content: limitOutput(sections.flat().join("\n")), isError: false };
  }
}

/**
 * A read the model chose is an MCP call like any other: the URI is the model's text, sent to the
 * server, so a prompt-injected model could carry a secret out in it (`file:///…?k=<.env>`). So it
 * asks (no needsPermission: always), unless a rule allows it (`mcp__<server>`,
 * `read_mcp_resource(<server>)`, see permission-rules.ts); the question shows server and URI whole.
 * A resource the user names (`@server:uri`) is read by the REPL itself, not through this tool.
 */
export class ReadMcpResourceTool extends ResourceTool {
  readonly name = "read_mcp_resource";
  readonly description =
    "Reads one resource of an MCP server by its URI (from list_mcp_resources, or a template filled in). " +
    "Text comes back as text, images as images; other binary contents are only described.";
  readonly inputSchema = {
    type: "object",
    properties: {
      server: { type: "string", description: "The MCP server's name, as list_mcp_resources shows it" },
      uri: { type: "string", description: "The resource's URI" },
    },
    required: ["server", "uri"],
  };

  async execute(input: Record<string, unknown>, { signal }: ToolContext = {}): Promise<ToolResult> {
    const { server, uri } = input;
    if (typeof server !== "string" || typeof uri !== "string") return { content: "Error: server and uri must both be strings", isError: true };
    const servers = this.pick(server);
    if (!Array.isArray(servers)) return servers;
    const [{ client }] = servers as [{ name: string; client: McpClient }];
    try {
      const result = await client.readResource(uri, { signal });
      const blocks = resourceBlocks(server, result.contents);
      const images = blocks.filter((block): block is ImageBlock => block.type === "image");
      const text = blocks.flatMap((block) => (block.type === "text" ? [block.text] : [])).join("\n\n");
      return { content: text || `[resource ${server}:${cutText(uri, 500)}: no contents]`, isError: false, ...(images.length ? { images } : {}) };
    } catch (error) {
      return { content: `Error: reading ${cutText(uri, 500)} from MCP server '${server}' failed: ${reason(error)}`, isError: true };
    }
  }
}

function resourceLine(resource: Resource): string {
  const facts = [resource.name, resource.mimeType, resource.size !== undefined ? formatBytes(resource.size) : undefined].filter(Boolean);
  return `  ${resource.uri} (${facts.join(", ")})${describe(resource.description)}`;
}

function templateLine(template: ResourceTemplate): string {
  const facts = [template.name, template.mimeType].filter(Boolean);
  return `  template ${template.uriTemplate} (${facts.join(", ")})${describe(template.description)}`;
}

function describe(description: string | undefined): string {
  return description ? `: ${cutText(description.replace(/\s+/g, " ").trim(), MAX_DESCRIPTION_CHARS)}` : "";
}

function reason(error: unknown): string {
  return isCancellation(error) ? "cancelled by the user" : cutText((error as Error)?.message ?? String(error), 1000);
}
