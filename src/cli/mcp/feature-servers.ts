import type { ArgsDef } from "citty";
import { log } from "../../log.ts";
import type { McpClient, ServerFeature } from "../../mcp/index.ts";
import { McpError } from "../../mcp/light-index.ts";
import { CallFeedback } from "../../terminal/call-feedback.ts";
import { CliError } from "../../terminal/cli-error.ts";
import { declinedElicitation } from "../../terminal/declined-elicitation.ts";
import { cliAuth, openPool } from "./open-pool.ts";
import { reportStatuses } from "./server-errors.ts";
import { AD_HOC_NAME, isAdHoc, loadServerEntries, rootsFromArgs, selectEntry, serverSourceArgs, type ServerSourceOptions } from "./server-selection.ts";
import { loginFirst, signInArgs } from "./sign-in-flags.ts";

/** The flags of every command that reads a server's resources or prompts: as `mcp call`'s. */
export const featureCommandArgs = { ...signInArgs, ...serverSourceArgs } as const satisfies ArgsDef;

export interface FeatureServer {
  name: string;
  client: McpClient;
}

type FeatureArgs = ServerSourceOptions & { login?: boolean; browser?: boolean };

/**
 * The positional arguments of a command whose first one names the server: with `--stdio` or `--url`
 * the server is implied and every positional shifts left by one (as in `mcp call`).
 */
export function splitServerPositionals(args: FeatureArgs & { _: string[] }, named: Array<string | undefined>): [string | undefined, string[]] {
  const given = [...named, ...args._.slice(named.length)].filter((p): p is string => p !== undefined);
  if (isAdHoc(args)) return [AD_HOC_NAME, given];
  const [server, ...rest] = given;
  return [server, rest];
}

/**
 * Connects the servers a command is about and hands `work` those that offer `feature`, then closes
 * them all, on every way out. With `only` (one server named) every problem is the command's error:
 * NEEDS-AUTH is exit 5, a failed connection exit 3, a server without the feature exit 2 (the command
 * asked for something that is not there; nothing was sent). Without it, those servers are skipped
 * with a line on stderr, as `mcp tools` does. Nobody is there to answer a server's question, so it
 * is declined with a line saying what was asked.
 */
export async function withFeatureServers<T>(
  args: FeatureArgs,
  rawArgs: string[],
  only: string | undefined,
  feature: ServerFeature,
  work: (servers: FeatureServer[], feedback: CallFeedback) => Promise<T>,
): Promise<T> {
  const roots = rootsFromArgs(rawArgs);
  const entries = loadServerEntries(args);
  const selected = only === undefined ? entries : [selectEntry(entries, only)];
  const auth = args.login ? await loginFirst(selected, cliAuth(args), args.browser ?? true) : cliAuth(args);
  const feedback = new CallFeedback();
  const elicitation = declinedElicitation((line) => feedback.note(line));
  const pool = openPool(selected, { roots, elicitation, watchChanges: false, auth });
  pool.on("log", (logged) => feedback.log(logged));
  try {
    await pool.connectAll();
    const servers: FeatureServer[] = [];
    const statuses = pool.status();
    reportStatuses(statuses, only !== undefined);
    for (const status of statuses) {
      const client = status.state === "connected" ? pool.client(status.name) : undefined;
      if (!client) continue;
      if (client.offers(feature)) servers.push({ name: status.name, client });
      else if (only !== undefined) throw CliError.usage(McpError.notOffered(status.name, feature).message);
      else log.info(`MCP server '${status.name}' does not offer ${feature}: skipped`);
    }
    return await work(servers, feedback);
  } finally {
    feedback.done();
    await pool.closeAll();
  }
}
