import { defineCommand, type ArgsDef } from "citty";
import { rejectUnknownFlags } from "../known-flags.ts";
import { type ServerEntry, setsOwnAuthorization } from "../../mcp/config/server-config.ts";
import { currentIssuer } from "../../mcp/index.ts";
import { redactUrl } from "../../system/redact-url.ts";
import { issuerText } from "../../terminal/browser-sign-in.ts";
import { CliError } from "../../terminal/cli-error.ts";
import { sanitizeForTerminal } from "../../terminal/terminal-text.ts";
import { cliAuth, openPool } from "./open-pool.ts";
import { AD_HOC_NAME, loadServerEntries, selectEntry, serverSourceArgs } from "./server-selection.ts";
import { browserArg, signInAtTerminal, terminalSignIn } from "./sign-in-flags.ts";
import { closeWarmConnections } from "./warm-server-access.ts";

const { stdio: _stdio, root: _root, ...sources } = serverSourceArgs;

const loginArgs = {
  name: { type: "positional", required: false, description: "The server's name in the config (absent with --url)" },
  ...browserArg,
  ...sources,
} as const satisfies ArgsDef;

export default defineCommand({
  meta: { name: "login", description: "Sign in to an MCP server that asks for OAuth: cat-code mcp login <server> [--no-browser] (or --url <url>)" },
  args: loginArgs,
  async run({ args, rawArgs }) {
    rejectUnknownFlags(rawArgs, loginArgs);
    const name = args.url !== undefined ? AD_HOC_NAME : args.name;
    if (name === undefined || (args.url !== undefined && args.name !== undefined)) {
      throw CliError.usage("usage: cat-code mcp login <server> [--no-browser], or cat-code mcp login --url <url>");
    }
    const entry = selectEntry(loadServerEntries(args), name);
    const shown = args.url !== undefined ? redactUrl(args.url) : name;
    refuseWithoutOAuth(entry, shown);

    const auth = cliAuth(args);
    const outcome = await signInAtTerminal(entry, auth, args.browser);
    if (outcome.kind === "not-asked") {
      console.log(`'${sanitizeForTerminal(shown)}' does not ask for a sign-in`);
      return;
    }
    if (outcome.kind !== "signed-in") throw CliError.usage(`'${shown}' cannot be signed in to`);
    // Perhaps another account: the keeper's connections of the old sign-in are not reused.
    await closeWarmConnections(name, sanitizeForTerminal(shown));
    // The new tokens are in the store: a pool like every command's shows they work. It may still
    // sign in, as `--login` does: a server that names a new authorization server once it sees the
    // first token (SEP-2352) is signed in to there within this login, not at the user's next command.
    const pool = openPool([entry], { watchChanges: false, auth: { ...auth, interaction: terminalSignIn(entry.name, args.browser).interaction } });
    try {
      await pool.connectAll();
      const status = pool.status()[0];
      const issuer = currentIssuer(entry, auth, outcome.issuer);
      if (status?.state === "connected") {
        console.log(`signed in to ${sanitizeForTerminal(shown)} (${issuerText(issuer)}), ${status.tools.length} tool(s)`);
        return;
      }
      const reason = status && "reason" in status ? status.reason : "not connected";
      throw CliError.unavailable(`signed in to ${shown} (${issuerText(issuer)}), but connecting failed: ${reason}`);
    } finally {
      await pool.closeAll();
    }
  },
});

/** A usage error for an entry OAuth does not apply to, saying why. */
function refuseWithoutOAuth(entry: ServerEntry, shown: string): void {
  if (!entry.ok) return;
  if (entry.config.type !== "http") {
    throw CliError.usage(`'${shown}' is a stdio server: OAuth sign-in is for HTTP servers (a stdio server gets its credentials from its env)`);
  }
  if (setsOwnAuthorization(entry.config)) {
    throw CliError.usage(`'${shown}' sets its own Authorization header in ${entry.source}: cat-code never replaces it; remove it from "headers" to sign in with OAuth`);
  }
}
