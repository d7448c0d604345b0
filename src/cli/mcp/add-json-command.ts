import { defineCommand, type ArgsDef } from "citty";
import { isVariableOnly } from "../../mcp/config/launch-summary.ts";
import { isPlainObject } from "../../system/plain-object.ts";
import { CliError } from "../../terminal/cli-error.ts";
import { rejectUnknownFlags } from "../known-flags.ts";
import { parseScope, scopeArg } from "./config-scope.ts";
import { saveEntry } from "./save-entry.ts";

const addJsonArgs = {
  name: { type: "positional", required: false, description: "The server's name: letters, digits, '_' and '-'" },
  json: { type: "positional", required: false, description: `The entry, e.g. '{"command":"npx","args":["-y","pkg"]}'` },
  ...scopeArg,
  verbose: { type: "boolean", description: "Log debug lines to stderr" },
} as const satisfies ArgsDef;

export default defineCommand({
  meta: { name: "add-json", description: "Add a server from its entry as JSON: cat-code mcp add-json <name> '<json>'" },
  args: addJsonArgs,
  async run({ args, rawArgs }) {
    rejectUnknownFlags(rawArgs, addJsonArgs);
    const scope = parseScope(args.scope);
    if (args.name === undefined || args.json === undefined || args._.length > 2) {
      throw CliError.usage(`usage: cat-code mcp add-json <name> '<entry as JSON>' [--scope user|project]`);
    }
    let entry: unknown;
    try {
      entry = JSON.parse(args.json);
    } catch (error) {
      throw CliError.usage(`the entry is not valid JSON: ${(error as Error).message}; nothing was written`);
    }
    if (typeof entry !== "object" || entry === null || Array.isArray(entry)) {
      throw CliError.usage(`the entry must be a JSON object like '{"command":"./server.sh"}'; nothing was written`);
    }
    const oauth = (entry as Record<string, unknown>).oauth;
    // As `mcp add --client-secret` does: a project's file is shared, so a secret there is a bare ${VAR}.
    if (scope === "project" && isPlainObject(oauth) && oauth.clientSecret !== undefined && !isVariableOnly(oauth.clientSecret)) {
      throw CliError.usage(
        `"oauth.clientSecret" with --scope project would write the secret into .mcp.json, which the project shares: write it as "\${VARIABLE}" and set the variable; nothing was written`,
      );
    }
    await saveEntry(args.name, scope, entry as Record<string, unknown>);
  },
});
