import { defineCommand, type ArgsDef } from "citty";
import { rejectUnknownFlags } from "../known-flags.ts";
import { CredentialsStore, signOut } from "../../mcp/index.ts";
import { closeWarmConnections } from "./warm-server-access.ts";
import { redactUrl } from "../../system/redact-url.ts";
import { CliError } from "../../terminal/cli-error.ts";
import { signOutLine } from "../../terminal/sign-out-line.ts";
import { sanitizeForTerminal } from "../../terminal/terminal-text.ts";
import { AD_HOC_NAME, loadServerEntries, selectEntry, serverSourceArgs } from "./server-selection.ts";

const { stdio: _stdio, root: _root, ...sources } = serverSourceArgs;

const logoutArgs = {
  name: { type: "positional", required: false, description: "The server's name in the config (absent with --url)" },
  ...sources,
} as const satisfies ArgsDef;

export default defineCommand({
  meta: { name: "logout", description: "Forget an MCP server's OAuth tokens, revoking them where its authorization server offers that" },
  args: logoutArgs,
  async run({ args, rawArgs }) {
    rejectUnknownFlags(rawArgs, logoutArgs);
    const adHoc = args.url !== undefined;
    const name = adHoc ? AD_HOC_NAME : args.name;
    if (name === undefined || (adHoc && args.name !== undefined)) throw CliError.usage("usage: cat-code mcp logout <server>, or cat-code mcp logout --url <url>");
    const entry = selectEntry(loadServerEntries(args), name);
    const shown = sanitizeForTerminal(adHoc ? redactUrl(args.url!) : name);
    if (!entry.ok || entry.config.type !== "http") throw CliError.usage(`'${shown}' is a stdio server: it has no OAuth tokens`);

    const result = await signOut({ name, url: entry.config.url, oauth: entry.config.oauth }, new CredentialsStore(), { onlyUrl: adHoc });
    await closeWarmConnections(name, shown);
    console.log(signOutLine(shown, result));
  },
});
