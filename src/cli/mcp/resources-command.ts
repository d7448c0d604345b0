import { defineCommand, type ArgsDef } from "citty";
import { rejectUnknownFlags } from "../known-flags.ts";
import { log } from "../../log.ts";
import type { McpClient } from "../../mcp/index.ts";
import { formatBytes } from "../../mcp/text-index.ts";
import type { Resource, ResourceTemplate } from "../../mcp/protocol.ts";
import { printResult } from "../../terminal/output.ts";
import { alignColumns, sanitizeForTerminal } from "../../terminal/terminal-text.ts";
import { featureCommandArgs, splitServerPositionals, withFeatureServers } from "./feature-servers.ts";
import { cliErrorFor, isUnimplemented } from "./server-errors.ts";
import { jsonForTerminal } from "../../terminal/terminal-json.ts";

const resourcesArgs = {
  server: { type: "positional", required: false, description: "Only this server's resources" },
  json: { type: "boolean", description: "Print one JSON document" },
  ...featureCommandArgs,
} as const satisfies ArgsDef;

interface ServerResources {
  server: string;
  resources: Resource[];
  templates: ResourceTemplate[];
}

export default defineCommand({
  meta: { name: "resources", description: "List the resources and resource templates of every MCP server that offers them, or of one" },
  args: resourcesArgs,
  async run({ args, rawArgs }) {
    rejectUnknownFlags(rawArgs, resourcesArgs);
    const [only] = splitServerPositionals(args, [args.server]);
    const listed = await withFeatureServers(args, rawArgs, only, "resources", (servers) =>
      Promise.all(
        servers.map(async ({ name, client }): Promise<ServerResources> => {
          try {
            const [resources, templates] = await Promise.all([client.listResources(), templatesOf(name, client)]);
            return { server: name, resources, templates };
          } catch (error) {
            throw cliErrorFor(error, `listing the resources of '${name}'`);
          }
        }),
      ),
    );
    if (args.json) {
      await printResult(jsonForTerminal(resourcesJson(listed), 2));
      return;
    }
    if (listed.every((s) => s.resources.length === 0 && s.templates.length === 0)) {
      console.error("No MCP resources.");
      return;
    }
    // Listing all: each server named above its rows, since `mcp read` needs the name.
    const withHeaders = only === undefined;
    const lines = listed.flatMap(({ server, resources, templates }) => {
      const rows = [
        ...resources.map((r) => [r.uri, r.name, r.mimeType ?? "", r.size === undefined ? "" : formatBytes(r.size)]),
        ...templates.map((t) => [t.uriTemplate, t.name, t.mimeType ?? "", "(template)"]),
      ].map((row) => row.map((cell) => sanitizeForTerminal(cell)));
      const header = `${sanitizeForTerminal(server)}: ${resources.length} resource(s), ${templates.length} template(s)`;
      const aligned = alignColumns(rows).map((line) => (withHeaders ? `  ${line}` : line));
      return withHeaders ? [header, ...aligned] : aligned;
    });
    await printResult(lines.join("\n"));
  },
});

/**
 * A server's templates. Some servers that offer resources do not answer `resources/templates/list`
 * (a method they never implemented): their resources still list, with no templates.
 */
async function templatesOf(server: string, client: McpClient): Promise<ResourceTemplate[]> {
  try {
    return await client.listResourceTemplates();
  } catch (error) {
    if (!isUnimplemented(error)) throw error;
    log.debug(`MCP server '${server}' does not answer resources/templates/list (${error.message}): no templates`);
    return [];
  }
}

/**
 * The JSON a script gets: the fields the spec defines, picked one by one (a server's extra fields
 * stay out, and none of them can pose as `server`).
 */
function resourcesJson(listed: ServerResources[]) {
  return {
    resources: listed.flatMap(({ server, resources }) =>
      resources.map((r) => ({ server, uri: r.uri, name: r.name, title: r.title, description: r.description, mimeType: r.mimeType, size: r.size })),
    ),
    templates: listed.flatMap(({ server, templates }) =>
      templates.map((t) => ({ server, uriTemplate: t.uriTemplate, name: t.name, title: t.title, description: t.description, mimeType: t.mimeType })),
    ),
  };
}
