import type { AuthContext, RootsProvider, ServerStatus } from "../../mcp/index.ts";
import type { ServerEntry } from "../../mcp/config/server-config.ts";
import type { CallToolResult } from "../../mcp/protocol.ts";
import { keepAliveSeconds } from "../../keeper/keep-alive-setting.ts";
import { keepAliveArg, withKeepAlive } from "./keep-alive-choice.ts";
import type { ServerAccess, ServerAccessOptions } from "./server-access-contract.ts";
import type { ServerSourceOptions } from "./server-selection.ts";

export type { ServerAccess, ServerAccessOptions } from "./server-access-contract.ts";

/** The environment switch that turns the keeper off for every command (tests set it). */
const NO_KEEPER_VARIABLE = "CAT_CODE_NO_KEEPER";

/** `--no-keeper` (citty reads `--no-X` as X false): shared by the commands that can go through the keeper. */
export const keeperArgs = {
  keeper: { type: "boolean", default: true, description: "Keep the servers warm in the connection keeper (--no-keeper: connect them in this command)" },
  ...keepAliveArg,
} as const;

/**
 * The servers of these entries, warm where the keeper can hold them, cold otherwise: with the keeper
 * off (flag, CAT_CODE_NO_KEEPER=1, Windows: no named pipe yet), for a server kept 0 s (`keepAlive: 0`,
 * `--keep-alive 0`, an ad-hoc one not asked to be kept: see keepAliveSeconds), and when the keeper
 * cannot be reached or started (a debug line says why; a refused folder, a warning). The keeper
 * never fails a command that would have worked without it.
 */
export async function openServers(entries: ServerEntry[], options: ServerAccessOptions): Promise<ServerAccess> {
  const wanted = keeperWanted(options) ? entries.filter((entry) => goesWarm(entry, options.keepAlive)) : [];
  if (wanted.length === 0) return openCold(entries, options);
  const warm = wanted.map((entry) => withKeepAlive(entry, keepAliveSeconds(entry, options.keepAlive, [process.env])));
  const { openWarm } = await import("./warm-server-access.ts");
  const warmAccess = await openWarm(warm, { ...options, roots: rootPaths(options.roots) }, () => openCold(wanted, options));
  if (!warmAccess) return openCold(entries, options);
  if (wanted.length === entries.length) return warmAccess;
  const cold = await openCold(entries.filter((entry) => !wanted.includes(entry)), options);
  return new MixedAccess(entries, [warmAccess, cold]);
}

function keeperWanted(options: ServerAccessOptions, env = process.env, platform = process.platform): boolean {
  if (options.cold) return false;
  if (env[NO_KEEPER_VARIABLE] && env[NO_KEEPER_VARIABLE] !== "0") return false;
  return platform !== "win32";
}

/**
 * Only an entry the command may start goes to the keeper (the rest have a status without a server),
 * and only one kept alive for some time (keepAliveSeconds is not 0).
 */
function goesWarm(entry: ServerEntry, flag: number | undefined): boolean {
  if (!entry.ok || entry.config.disabled || entry.trust) return false;
  return keepAliveSeconds(entry, flag, [process.env]) !== 0;
}

/** The folders as paths: the keeper builds its own RootsProvider from them (working directory first). */
function rootPaths(roots: RootsProvider): string[] {
  // Bun's own, not node:url's (see RootsProvider).
  return roots.list().map((root) => Bun.fileURLToPath(root.uri));
}

async function openCold(entries: ServerEntry[], options: ServerAccessOptions): Promise<ServerAccess> {
  // Loaded only here: a warm command never loads the pool, the clients or the transports.
  const { ColdServerAccess } = await import("./cold-server-access.ts");
  return new ColdServerAccess(entries, options);
}

/** Some servers warm, some cold (`keepAlive: 0`): statuses in the order of the entries. */
class MixedAccess implements ServerAccess {
  constructor(
    private readonly entries: ServerEntry[],
    private readonly parts: ServerAccess[],
  ) {}

  async connectAll(): Promise<void> {
    await Promise.all(this.parts.map((part) => part.connectAll()));
  }

  status(): ServerStatus[] {
    const byName = new Map<string, ServerStatus>();
    for (const part of this.parts) for (const status of part.status()) byName.set(status.name, status);
    return this.entries.flatMap((entry) => byName.get(entry.name) ?? []);
  }

  call(...[server, ...rest]: Parameters<ServerAccess["call"]>): Promise<CallToolResult> {
    const part = this.parts.find((p) => p.status().some((status) => status.name === server)) ?? this.parts[0]!;
    return part.call(server, ...rest);
  }

  async closeAll(): Promise<void> {
    await Promise.all(this.parts.map((part) => part.closeAll()));
  }
}

/**
 * `--login`: signs in first to each HTTP entry without tokens, at the terminal (the command then runs
 * cold). Loaded only then: the sign-in code is no part of a warm command.
 */
export async function signInFirst(entries: ServerEntry[], source: ServerSourceOptions, openBrowser: boolean): Promise<AuthContext> {
  const [{ loginFirst }, { cliAuth }] = await Promise.all([import("./sign-in-flags.ts"), import("./open-pool.ts")]);
  return loginFirst(entries, cliAuth(source), openBrowser);
}
