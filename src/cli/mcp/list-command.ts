import { existsSync } from "node:fs";
import { defineCommand, type ArgsDef } from "citty";
import { rejectUnknownFlags } from "../known-flags.ts";
import { projectConfigPath, withDisabledServers } from "../../mcp/config/configured-servers.ts";
import { userConfigPath } from "../../mcp/config/load-config.ts";
import { cliSignInHint, redactStatus, renderStatusLines, statusToJson } from "../../terminal/render-status.ts";
import { parseKeepAlive } from "./keep-alive-choice.ts";
import { keeperArgs, openServers } from "./server-access.ts";
import { loadServerEntries, rootsFromArgs, serverSourceArgs } from "./server-selection.ts";
import { jsonForTerminal } from "../../terminal/terminal-json.ts";
import { projectSettingsPath, userSettingsPath } from "../../settings/settings-paths.ts";

const listArgs = {
  json: { type: "boolean", description: "Print one JSON document" },
  ...keeperArgs,
  ...serverSourceArgs,
} as const satisfies ArgsDef;

export default defineCommand({
  meta: { name: "list", description: "Connect to every configured MCP server and show its state" },
  args: listArgs,
  async run({ args, rawArgs }) {
    rejectUnknownFlags(rawArgs, listArgs);
    const keepAlive = parseKeepAlive(args["keep-alive"]);
    const roots = rootsFromArgs(rawArgs);
    // What the project disabled (`/mcp disable`, settings.json's disabledMcpServers) shows DISABLED, not started.
    const entries = withDisabledServers(loadServerEntries(args), await disabledServers(process.cwd()));
    const servers = await openServers(entries, { roots, source: args, cold: args.keeper === false, keepAlive });
    try {
      await servers.connectAll();
      const statuses = servers.status().map((status) => redactStatus(status, entries));
      if (args.json) {
        console.log(jsonForTerminal({ servers: statuses.map((status) => statusToJson(status, entries)) }, 2));
      } else if (statuses.length === 0) {
        const files = args["mcp-config"] ?? `${userConfigPath()} or ${projectConfigPath()}`;
        console.error(`No MCP servers configured in ${files}. Add one, e.g.:\n  cat-code mcp add echo -- ./echo-server.sh`);
      } else {
        console.log(renderStatusLines(statuses, entries, cliSignInHint(args)).join("\n"));
        const waiting = statuses.filter((status) => status.state === "needs-approval").map((status) => status.name);
        if (waiting.length > 0) {
          console.error(`Project servers start only once approved; check each (cat-code mcp get <name>), then: cat-code mcp approve ${waiting.join(" ")}`);
        }
      }
    } finally {
      await servers.closeAll();
    }
  },
});

/**
 * settings.json's disabledMcpServers. With neither settings file there is nothing to read: the
 * settings' schemas and rule syntax are then not loaded at all (most of a warm list's extra cost
 * since /mcp disable, issue 32).
 */
async function disabledServers(cwd: string): Promise<string[] | undefined> {
  if (!existsSync(userSettingsPath()) && !existsSync(projectSettingsPath(cwd))) return undefined;
  const { loadSettings } = await import("../../settings/load-settings.ts");
  return loadSettings({ cwd }).settings.disabledMcpServers;
}
