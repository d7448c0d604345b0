import { defineCommand, type ArgsDef } from "citty";
import { rejectUnknownFlags } from "../known-flags.ts";
import { log } from "../../log.ts";
import { assignToolNames, describeTool } from "../../mcp/text-index.ts";
import { printResult } from "../../terminal/output.ts";
import { alignColumns, firstLine, sanitizeForTerminal } from "../../terminal/terminal-text.ts";
import { parseKeepAlive } from "./keep-alive-choice.ts";
import { reportStatuses } from "./server-errors.ts";
import { keeperArgs, openServers, signInFirst } from "./server-access.ts";
import { AD_HOC_NAME, isAdHoc, loadServerEntries, rootsFromArgs, selectEntry, serverSourceArgs } from "./server-selection.ts";
import { signInArgs } from "./sign-in-args.ts";
import { jsonForTerminal } from "../../terminal/terminal-json.ts";

const toolsArgs = {
  server: { type: "positional", required: false, description: "Only this server's tools" },
  json: { type: "boolean", description: "Print one JSON document" },
  schema: { type: "boolean", description: "Show each tool's input schema" },
  ...signInArgs,
  ...keeperArgs,
  ...serverSourceArgs,
} as const satisfies ArgsDef;

export default defineCommand({
  meta: { name: "tools", description: "List the tools of every connected MCP server, or of one" },
  args: toolsArgs,
  async run({ args, rawArgs }) {
    rejectUnknownFlags(rawArgs, toolsArgs);
    const keepAlive = parseKeepAlive(args["keep-alive"]);
    const roots = rootsFromArgs(rawArgs);
    const entries = loadServerEntries(args);
    const only = isAdHoc(args) ? AD_HOC_NAME : args.server;
    const selected = only === undefined ? entries : [selectEntry(entries, only)];
    const auth = args.login ? await signInFirst(selected, args, args.browser) : undefined;
    const servers = await openServers(selected, { roots, source: args, auth, cold: args.keeper === false || args.login, keepAlive });
    try {
      await servers.connectAll();
      const statuses = servers.status();
      reportStatuses(statuses, only !== undefined);
      // Named as a registry names them (the agent's names), without clients: the keeper may hold those.
      const connected = statuses.flatMap((status) => (status.state === "connected" ? [{ server: status.name, tools: status.tools }] : []));
      const tools = assignToolNames(connected, undefined, (line) => log.warn(line)).map(({ name, server, definition }) => ({
        name,
        server,
        definition,
        description: describeTool(definition),
        inputSchema: definition.inputSchema,
      }));
      if (args.json) {
        const json = tools.map((tool) => ({
          name: tool.name,
          server: tool.server,
          tool: tool.definition.name,
          description: tool.description,
          // A hint from the server, as the agent reads it (McpToolAdapter.isReadOnly).
          readOnly: tool.definition.annotations?.readOnlyHint === true,
          inputSchema: tool.inputSchema,
        }));
        await printResult(jsonForTerminal({ tools: json }, 2));
        return;
      }
      if (tools.length === 0) {
        console.error("No MCP tools.");
        return;
      }
      const lines = alignColumns(tools.map((tool) => [sanitizeForTerminal(tool.name), sanitizeForTerminal(firstLine(tool.description))]));
      const out = lines.flatMap((line, i) => {
        if (!args.schema) return [line];
        const schema = JSON.stringify(tools[i]?.inputSchema, null, 2).split("\n").map((l) => `    ${sanitizeForTerminal(l)}`);
        return [line, ...schema];
      });
      await printResult(out.join("\n"));
    } finally {
      await servers.closeAll();
    }
  },
});
