import type { McpClient, ServerPool } from "../mcp/index.ts";
import type { ResourceTemplate } from "../mcp/protocol.ts";
import type { CompletionSource } from "./completion.ts";
import type { RemoteCompletions } from "./remote-completion.ts";
import { templateVariableAt } from "./template-variable.ts";

export interface MentionCompletionEnv {
  pool: Pick<ServerPool, "serversOffering">;
  remote: RemoteCompletions;
}

/** `@server:uri` as the last word; a mention must start a word, so `me@example.com` is not one. */
const MENTION = /(?:^|\s)@([^\s:]*)(?::(\S*))?$/;

/**
 * Tab in an `@` mention: the servers that offer resources (`@everything:`), then that server's
 * resource URIs and, for each template, its fixed start (`demo://resource/dynamic/text/`); past that
 * start, the template's variable as the server completes it (`completion/complete`, `ref/resource`).
 */
export function mentionCompletion(env: MentionCompletionEnv): CompletionSource {
  return async (line) => {
    const match = MENTION.exec(line);
    if (!match) return undefined;
    const [, serverName = "", uri] = match;
    const servers = env.pool.serversOffering("resources").filter(({ name }) => !/[\s:]/.test(name));
    if (uri === undefined) return [servers.map(({ name }) => `@${name}:`), `@${serverName}`];
    const server = servers.find(({ name }) => name === serverName);
    if (!server) return undefined;
    const word = `@${serverName}:${uri}`;
    const [resources, templates] = await env.remote.within(
      Promise.all([server.client.listResources(), server.client.listResourceTemplates()]),
      [[], []],
      `the resources of ${serverName}`,
    );
    const variable = await templateCompletion(serverName, server.client, templates, uri, env.remote);
    const uris = [...resources.map((resource) => resource.uri), ...templates.map((template) => fixedStart(template.uriTemplate)), ...variable];
    return [uris.filter((candidate) => !/\s/.test(candidate)).map((candidate) => `@${serverName}:${candidate}`), word];
  };
}

/** The URIs that complete the variable being typed in `uri` of the first template it is within. */
async function templateCompletion(
  server: string,
  client: Pick<McpClient, "offers" | "complete">,
  templates: ResourceTemplate[],
  uri: string,
  remote: RemoteCompletions,
): Promise<string[]> {
  for (const template of templates) {
    const at = templateVariableAt(template.uriTemplate, uri);
    if (!at) continue;
    const values = await remote.values(server, client, { type: "ref/resource", uri: template.uriTemplate }, { name: at.name, value: at.value }, at.earlier);
    return values.map((value) => `${at.before}${value}`);
  }
  return [];
}

/** What every URI of a template starts with: up to its first variable. */
function fixedStart(uriTemplate: string): string {
  const brace = uriTemplate.indexOf("{");
  return brace === -1 ? uriTemplate : uriTemplate.slice(0, brace);
}
