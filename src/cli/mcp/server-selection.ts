import { resolve } from "node:path";
import type { ArgsDef } from "citty";
import { log } from "../../log.ts";
import { loadConfiguredServers } from "../../mcp/config/configured-servers.ts";
import { ConfigError } from "../../config/config-error.ts";
import { readConfigFile, type LoadedConfig } from "../../mcp/config/load-config.ts";
import { parseServerEntry } from "../../mcp/config/load-config.ts";
import { MAX_TIMEOUT_MS, type ServerEntry } from "../../mcp/config/server-config.ts";
import { RootsProvider } from "../../mcp/light-index.ts";
import { CliError } from "../../terminal/cli-error.ts";
import { rootArg, rootFlagValues } from "../root-flags.ts";
import { cliErrorFor } from "./server-errors.ts";
import { splitShellWords } from "../../system/shell-words.ts";
import { unknownNameMessage } from "../../terminal/suggest.ts";

/** The name an ad-hoc server (`--stdio`, `--url`) gets in tool names: `mcp__adhoc__echo`. */
export const AD_HOC_NAME = "adhoc";

/** Options every `mcp` command shares: where the servers come from. */
export const serverSourceArgs = {
  "mcp-config": { type: "string", description: "Read servers from this file instead of ~/.cat-code/mcp.json and ./.mcp.json", valueHint: "file" },
  stdio: { type: "string", description: "Use one ad-hoc stdio server instead of the config", valueHint: "command line" },
  url: { type: "string", description: "Use one ad-hoc Streamable HTTP server instead of the config", valueHint: "url" },
  timeout: {
    type: "string",
    description: "Give up on each request to a server, the handshake included, after this many milliseconds (default: the entry's timeout, or 30000)",
    valueHint: "ms",
  },
  root: rootArg,
  verbose: { type: "boolean", description: "Log debug lines to stderr" },
} as const satisfies ArgsDef;

export interface ServerSourceOptions {
  "mcp-config"?: string;
  stdio?: string;
  url?: string;
  timeout?: string;
}

/** True when the servers come from a flag, so the server-name positional is absent. */
export function isAdHoc(options: ServerSourceOptions): boolean {
  return options.stdio !== undefined || options.url !== undefined;
}

/**
 * The configured servers: the user's and the project's (`.mcp.json` here, overriding the user's of the
 * same name, waiting for approval), or only those of `--mcp-config`, trusted as given; or the one
 * ad-hoc server. Config warnings go to stderr here.
 */
export function loadServerEntries(options: ServerSourceOptions): ServerEntry[] {
  const timeoutMs = parseTimeout(options.timeout);
  const entries = loadEntries(options);
  // The entry's own `timeout` bounds every request, `initialize` included: --timeout replaces it.
  if (timeoutMs === undefined) return entries;
  return entries.map((entry) => (entry.ok ? { ...entry, config: { ...entry.config, timeout: timeoutMs } } : entry));
}

/** `--timeout`: refused when it is no whole number, or too large for a timer (it would fire at once). */
export function parseTimeout(text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  const ms = Number(text);
  if (!Number.isInteger(ms) || ms <= 0) throw CliError.usage(`--timeout must be a whole number of milliseconds, got '${text}'`);
  if (ms > MAX_TIMEOUT_MS) throw CliError.usage(`--timeout must be at most ${MAX_TIMEOUT_MS} ms (about 24 days), got '${text}'`);
  return ms;
}

function loadEntries(options: ServerSourceOptions): ServerEntry[] {
  if (options.stdio !== undefined && options.url !== undefined) throw CliError.usage("give either --stdio or --url, not both");
  if (options.stdio !== undefined) return [adHocStdioEntry(options.stdio)];
  if (options.url !== undefined) return [checked(parseServerEntry(AD_HOC_NAME, { type: "http", url: options.url }, "ad-hoc", "--url", process.env))];
  let loaded: LoadedConfig;
  try {
    loaded = options["mcp-config"]
      ? readConfigFile(resolve(options["mcp-config"]), "flag", { required: true })
      : loadConfiguredServers();
  } catch (error) {
    if (error instanceof ConfigError && error.kind === "missing-file") throw CliError.usage(`${error.message} (given with --mcp-config)`);
    throw error;
  }
  for (const warning of loaded.warnings) log.warn(warning);
  return loaded.servers;
}

function adHocStdioEntry(commandLine: string): ServerEntry {
  let words: string[];
  try {
    words = splitShellWords(commandLine);
  } catch (error) {
    throw CliError.usage(`--stdio: ${(error as Error).message}`);
  }
  const [command, ...args] = words;
  if (!command) throw CliError.usage("--stdio needs a command line, e.g. --stdio 'npx -y @modelcontextprotocol/server-everything'");
  return checked(parseServerEntry(AD_HOC_NAME, { type: "stdio", command, args }, "ad-hoc", "--stdio", {}));
}

function checked(entry: ServerEntry): ServerEntry {
  if (!entry.ok) throw CliError.usage(`${entry.source}: ${entry.error}`);
  return entry;
}

/** The one entry a command names; a usage error (listing the names that exist) when it is unusable. */
export function selectEntry(entries: ServerEntry[], name: string): ServerEntry {
  const entry = entries.find((e) => e.name === name);
  if (!entry) throw CliError.usage(unknownNameMessage("server", name, entries.map((e) => e.name)));
  // The states initialStatus gives an entry that will not be started, said as the pool's would be
  // (the pool itself is not loaded here: a warm command never loads it).
  const base = { name, scope: entry.scope, source: entry.source, description: "" };
  if (!entry.ok) throw cliErrorFor({ ...base, state: "invalid", reason: entry.error });
  if (entry.config.disabled) throw cliErrorFor({ ...base, state: "disabled" });
  if (entry.trust) throw cliErrorFor({ ...base, state: entry.trust });
  return entry;
}

/**
 * The folders servers are told about (`roots/list`): the working directory, then each `--root` in
 * the order given. A missing folder, or a file, is a usage error naming the flag's value, before
 * any server starts.
 */
export function rootsFromArgs(rawArgs: string[], cwd = process.cwd()): RootsProvider {
  let roots: RootsProvider;
  try {
    roots = new RootsProvider(cwd);
  } catch (error) {
    throw CliError.usage(`the working directory cannot be a root: ${(error as Error).message}`);
  }
  for (const dir of rootFlagValues(rawArgs)) {
    try {
      roots.add(dir);
    } catch (error) {
      throw CliError.usage(`--root ${dir}: ${(error as Error).message}`);
    }
  }
  return roots;
}
