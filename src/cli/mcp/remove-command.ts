import { defineCommand, type ArgsDef } from "citty";
import { readConfigText } from "../../config/config-file-text.ts";
import { ConfigError } from "../../config/config-error.ts";
import { removeServer, serverNames } from "../../mcp/config/config-writer.ts";
import { CliError } from "../../terminal/cli-error.ts";
import { rejectUnknownFlags } from "../known-flags.ts";
import { printResult } from "../../terminal/output.ts";
import { unknownNameMessage } from "../../terminal/suggest.ts";
import { configPathFor, parseScope, scopeArg, writingConfig, type WritableScope } from "./config-scope.ts";

const removeArgs = {
  name: { type: "positional", required: false, description: "The server's name" },
  ...scopeArg,
  verbose: { type: "boolean", description: "Log debug lines to stderr" },
} as const satisfies ArgsDef;

export default defineCommand({
  meta: { name: "remove", description: "Remove a server from the user's or the project's config" },
  args: removeArgs,
  async run({ args, rawArgs }) {
    rejectUnknownFlags(rawArgs, removeArgs);
    if (args.name === undefined) throw CliError.usage("usage: cat-code mcp remove <name> [--scope user|project]");
    const name = args.name;
    const scopes: WritableScope[] = args.scope === undefined ? ["project", "user"] : [parseScope(args.scope)];
    const names = new Map(scopes.map((scope) => [scope, namesIn(configPathFor(scope))]));
    const holding = scopes.filter((scope) => names.get(scope)?.includes(name));
    if (holding.length === 0) {
      const where = scopes.map((scope) => configPathFor(scope)).join(" or ");
      throw CliError.usage(`${unknownNameMessage("server", name, [...new Set([...names.values()].flat())])} (looked in ${where}; nothing was written)`);
    }
    if (holding.length > 1) {
      throw CliError.usage(`'${name}' is in both ${configPathFor("project")} and ${configPathFor("user")}; say which with --scope project or --scope user`);
    }
    const scope = holding[0] as WritableScope;
    const path = configPathFor(scope);
    await writingConfig(() => removeServer(path, name));
    await printResult(`Removed '${name}' from ${path} (${scope} scope)`);
  },
});

function namesIn(path: string): string[] {
  try {
    return serverNames(readConfigText(path)?.text, path);
  } catch (error) {
    if (error instanceof ConfigError) throw CliError.usage(`${error.message}; nothing was written`);
    throw error;
  }
}
