import { log } from "../log.ts";
import { McpError } from "../mcp/light-index.ts";
import type { McpClient, ServerFeature, ServerPool, ServerStatus } from "../mcp/index.ts";
import { ErrorCode, type Prompt, type Resource, type ResourceTemplate, type ToolDefinition } from "../mcp/protocol.ts";
import { servedNames, type ServedItem } from "./served-names.ts";

/** A served item's upstream: the server's client and the item's own name there. */
export interface Upstream {
  server: string;
  client: McpClient;
  name: string;
}

/**
 * What the upstream servers offer, as one server shows it to its client: tools and prompts under
 * `<server>__<name>` (or, not namespaced, one server's under their own names), resources and
 * templates under their own URIs (a URI names its server). Each
 * list is asked of the servers side by side; a server whose list fails is left out of that list
 * (with a warning), never the whole answer. Lookups use the names of the last listing, and list
 * again once before they give up (a client may call a tool it never listed).
 */
export class UpstreamCatalog {
  private toolNames = new Map<string, ServedItem<ToolDefinition>>();
  private promptNames = new Map<string, ServedItem<Prompt>>();
  private resourceServers = new Map<string, string>();
  private templateServers: Array<{ server: string; template: ResourceTemplate; pattern: RegExp }> = [];

  /**
   * `namespaced: false` (`mcp serve --no-namespace`, one server only): its tools and prompts keep
   * their own names, so a client written for that server calls them as it always did.
   */
  constructor(
    private readonly pool: ServerPool,
    private readonly warn: (line: string) => void = (line) => log.warn(line),
    private readonly namespaced = true,
  ) {}

  private named<T extends { name: string }>(servers: Array<{ server: string; items: T[] }>): Array<ServedItem<T>> {
    if (this.namespaced) return servedNames(servers, this.warn);
    return servers.flatMap(({ server, items }) => items.map((definition) => ({ name: definition.name, server, definition })));
  }

  /** Every connected server's tools (as the pool listed them, the entry's include/exclude applied). */
  tools(): Array<ServedItem<ToolDefinition>> {
    const servers = this.pool.status().flatMap((status) => (status.state === "connected" ? [{ server: status.name, items: status.tools }] : []));
    const named = this.named(servers);
    this.toolNames = new Map(named.map((item) => [item.name, item]));
    return named;
  }

  async prompts(signal?: AbortSignal): Promise<Array<ServedItem<Prompt>>> {
    const lists = await this.fromEach("prompts", (client) => client.listPrompts({ signal }));
    const named = this.named(lists);
    this.promptNames = new Map(named.map((item) => [item.name, item]));
    return named;
  }

  async resources(signal?: AbortSignal): Promise<Resource[]> {
    const lists = await this.fromEach("resources", (client) => client.listResources({ signal }));
    this.resourceServers = new Map();
    const resources: Resource[] = [];
    for (const { server, items } of lists) {
      for (const resource of items) {
        // Two servers with one URI: the first (in config order) answers for it, as a reader could not tell them apart.
        if (this.resourceServers.has(resource.uri)) continue;
        this.resourceServers.set(resource.uri, server);
        resources.push(resource);
      }
    }
    return resources;
  }

  async templates(signal?: AbortSignal): Promise<ResourceTemplate[]> {
    const lists = await this.fromEach("resources", (client) => templatesOf(client, signal));
    this.templateServers = lists.flatMap(({ server, items }) => items.map((template) => ({ server, template, pattern: templatePattern(template.uriTemplate) })));
    return this.templateServers.map(({ template }) => template);
  }

  /** The upstream of a served tool name; undefined when no connected server has it. */
  tool(name: string): Upstream | undefined {
    const item = this.toolItem(name);
    return item && this.upstream(item.server, item.definition.name);
  }

  /** A served tool name's definition, as its server listed it; undefined when no connected server has it. */
  toolDefinition(name: string): ToolDefinition | undefined {
    return this.toolItem(name)?.definition;
  }

  private toolItem(name: string): ServedItem<ToolDefinition> | undefined {
    return this.toolNames.get(name) ?? (this.tools(), this.toolNames.get(name));
  }

  async prompt(name: string, signal?: AbortSignal): Promise<Upstream | undefined> {
    if (!this.promptNames.has(name)) await this.prompts(signal);
    const item = this.promptNames.get(name);
    return item && this.upstream(item.server, item.definition.name);
  }

  /** The server that answers for a URI: one that listed it, or one whose template matches it. */
  async resource(uri: string, signal?: AbortSignal): Promise<Upstream | undefined> {
    if (!this.resourceServers.has(uri)) await this.resources(signal);
    const listed = this.resourceServers.get(uri);
    if (listed) return this.upstream(listed, uri);
    if (!this.templateServers.some(({ pattern }) => pattern.test(uri))) await this.templates(signal);
    const templated = this.templateServers.find(({ pattern }) => pattern.test(uri));
    return templated && this.upstream(templated.server, uri);
  }

  /** The server whose template is exactly `uriTemplate` (a completion's `ref/resource`). */
  async template(uriTemplate: string, signal?: AbortSignal): Promise<Upstream | undefined> {
    if (!this.templateServers.some(({ template }) => template.uriTemplate === uriTemplate)) await this.templates(signal);
    const found = this.templateServers.find(({ template }) => template.uriTemplate === uriTemplate);
    return found && this.upstream(found.server, uriTemplate);
  }

  /** The status of a configured server a served name starts with (`<server>__…`), to say why it is not there. */
  statusBehind(name: string): ServerStatus | undefined {
    if (!this.namespaced) return this.pool.status()[0];
    return this.pool.status().find((status) => name.startsWith(`${status.name}__`));
  }

  private upstream(server: string, name: string): Upstream | undefined {
    const client = this.pool.client(server);
    return client && { server, client, name };
  }

  private async fromEach<T>(feature: ServerFeature, list: (client: McpClient) => Promise<T[]>): Promise<Array<{ server: string; items: T[] }>> {
    const servers = this.pool.serversOffering(feature);
    const lists = await Promise.all(
      servers.map(async ({ name, client }) => {
        try {
          return { server: name, items: await list(client) };
        } catch (error) {
          this.warn(`MCP server '${name}' could not list its ${feature}: ${(error as Error).message}; served without them`);
          return { server: name, items: [] as T[] };
        }
      }),
    );
    return lists;
  }
}

/** A server's templates; one that offers resources but never implemented the method has none. */
async function templatesOf(client: McpClient, signal?: AbortSignal): Promise<ResourceTemplate[]> {
  try {
    return await client.listResourceTemplates({ signal });
  } catch (error) {
    if (error instanceof McpError && error.code === ErrorCode.MethodNotFound && error.kind !== "not-offered") return [];
    throw error;
  }
}

/**
 * A URI template (RFC 6570) as a pattern that matches the URIs it expands to: each `{…}` matches
 * any run of characters, the rest literally. Loose on purpose: it only picks which server to ask.
 */
export function templatePattern(uriTemplate: string): RegExp {
  const parts = uriTemplate.split(/\{[^}]*\}/).map((literal) => literal.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"));
  return new RegExp(`^${parts.join(".*")}$`, "s");
}
