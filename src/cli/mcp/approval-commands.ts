import { defineCommand, type ArgsDef } from "citty";
import { log } from "../../log.ts";
import { loadConfiguredServers } from "../../mcp/config/configured-servers.ts";
import { readConfigFile } from "../../mcp/config/load-config.ts";
import { projectFolder, recordApproval, type ApprovalDecision } from "../../mcp/config/project-approval.ts";
import type { ServerEntry } from "../../mcp/config/server-config.ts";
import { CliError } from "../../terminal/cli-error.ts";
import { rejectUnknownFlags } from "../known-flags.ts";
import { printResult } from "../../terminal/output.ts";
import { unknownNameMessage } from "../../terminal/suggest.ts";
import { writingConfig } from "./config-scope.ts";

const approvalArgs = {
  name: { type: "positional", required: false, description: "A server of ./.mcp.json; more names may follow" },
  verbose: { type: "boolean", description: "Log debug lines to stderr" },
} as const satisfies ArgsDef;

/** `mcp approve` and `mcp deny`: the user's decision about servers of the project's `.mcp.json`. */
function approvalCommand(decision: ApprovalDecision) {
  const verb = decision === "approved" ? "approve" : "deny";
  return defineCommand({
    meta: {
      name: verb,
      description:
        decision === "approved"
          ? "Let servers of ./.mcp.json start, as they are written now (a change asks again)"
          : "Keep servers of ./.mcp.json from starting, until approved",
    },
    args: approvalArgs,
    async run({ args, rawArgs }) {
      rejectUnknownFlags(rawArgs, approvalArgs);
      const names = args._;
      if (names.length === 0) throw CliError.usage(`usage: cat-code mcp ${verb} <name>…`);
      const loaded = loadConfiguredServers();
      for (const warning of loaded.warnings) log.warn(warning);
      // Every name is checked before anything is recorded.
      const entries = names.map((name) => projectEntry(name, loaded.servers, loaded.projectPath, loaded.userPath));
      const lines: string[] = [];
      for (const entry of entries) {
        await writingConfig(() => recordApproval(entry, decision));
        lines.push(
          decision === "approved"
            ? `Approved '${entry.name}' of ${entry.source} for ${projectFolder(entry)}; if its entry changes, it needs approval again`
            : `Denied '${entry.name}' of ${entry.source}; it will not start here (cat-code mcp approve ${entry.name} to allow it)`,
        );
      }
      await printResult(lines.join("\n"));
    },
  });
}

function projectEntry(name: string, servers: ServerEntry[], projectPath: string, userPath: string): ServerEntry {
  const entry = servers.find((e) => e.name === name && e.scope === "project");
  if (entry) return entry;
  if (readConfigFile(userPath, "user").servers.some((e) => e.name === name)) {
    throw CliError.usage(`'${name}' is a user server (${userPath}); only servers of a project's .mcp.json need approval`);
  }
  const projectNames = servers.filter((e) => e.scope === "project").map((e) => e.name);
  throw CliError.usage(`${unknownNameMessage("project server", name, projectNames)} (in ${projectPath})`);
}

export const approve = approvalCommand("approved");
export const deny = approvalCommand("denied");
