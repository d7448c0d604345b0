import { existsSync, unlinkSync } from "node:fs";
import { log } from "../log.ts";
import { systemClock, type Clock } from "../system/clock.ts";
import { KeeperClient } from "./keeper-client.ts";
import { checkKeeperFile, prepareKeeperFolder } from "./keeper-folder.ts";
import { readKeeperInfo, type KeeperInfo } from "./keeper-info.ts";
import { withKeeperLock } from "./keeper-lock.ts";
import { pause, until, within } from "./keeper-pause.ts";
import { socketPathProblem, type KeeperPaths } from "./keeper-paths.ts";
import { KEEPER_PROTOCOL } from "./keeper-protocol.ts";

/** A keeper that does not say hello within this is hung. */
export const HELLO_TIMEOUT_MS = 1_000;
/** How long a keeper asked to stop (another version) may take to free its socket. */
export const STOP_WAIT_MS = 2_000;
/** How long a new keeper may take to answer its first hello. */
export const START_WAIT_MS = 3_000;
/** How long a hung keeper gets between SIGTERM and SIGKILL. */
export const KILL_GRACE_MS = 1_000;

export interface KeeperLaunchOptions {
  paths: KeeperPaths;
  /** cat-code's version: a keeper of another one is replaced. */
  version: string;
  clock?: Clock;
  /** Starts a keeper in the background; tests hand in their own. */
  spawn?: (paths: KeeperPaths) => void;
  /** Whether a pid is this home's keeper (only such a pid is ever signalled; see isKeeperOf), and how to signal it. */
  isKeeper?: (pid: number) => boolean;
  kill?: (pid: number, signal: NodeJS.Signals) => void;
}

/**
 * Requests sent right behind `hello`, before its answer (one round trip less for a warm command), to
 * a keeper whose keeper.json names this protocol and version (and which refuses connect and call to
 * a hello of another build: keeper-connection.ts). What they answer counts only from a keeper that
 * proves ready; otherwise it is dropped, and they are sent again to the keeper the command ends up with.
 * A dropped request's promise rejects: the caller gives each one a handler when it makes it.
 */
export type FirstRequest<T> = (client: KeeperClient) => T;

/** What was found on the socket. */
type Found<T = undefined> =
  | { kind: "ready"; client: KeeperClient; first?: T }
  | { kind: "absent" }
  /** Another version or protocol: greeted, so it can be asked to stop. */
  | { kind: "other"; client: KeeperClient; info: KeeperInfo }
  /** Accepts but does not answer, refuses our token, or has no keeper.json: it is signalled, its socket removed. */
  | { kind: "hung"; info: KeeperInfo | undefined; why: string };

/**
 * A greeted connection to this user's keeper of this version: the one running, or a new one. A keeper
 * of another version is stopped, a hung one killed (after a check that its pid is a keeper), and a
 * new one started under `keeper.lock`, so commands starting at once start one. Throws when there is
 * no keeper to be had (an unsafe folder: KeeperFolderError; no answer from a new one): the command
 * then runs cold.
 */
export async function findOrStartKeeper(options: KeeperLaunchOptions): Promise<KeeperClient> {
  return (await findOrStartKeeperWith(options)).client;
}

/**
 * findOrStartKeeper, with `first` sent right behind `hello` to a keeper that is running (see
 * FirstRequest): resolves with the client and that request's answer, still pending.
 */
export async function findOrStartKeeperWith<T = undefined>(options: KeeperLaunchOptions, first?: FirstRequest<T>): Promise<{ client: KeeperClient; first?: T }> {
  const { paths } = options;
  const clock = options.clock ?? systemClock;
  const tooLong = socketPathProblem(paths);
  if (tooLong) throw new Error(tooLong);
  prepareKeeperFolder(paths.folder);
  const found = await look(options, clock, first);
  if (found.kind === "ready") return { client: found.client, first: found.first ?? first?.(found.client) };
  if (found.kind === "other") found.client.close(); // Looked at again under the lock: someone may have replaced it meanwhile.
  const client = await withKeeperLock(paths.lock, clock, START_WAIT_MS + STOP_WAIT_MS + KILL_GRACE_MS, async () => {
    // Another command may have started one while this one waited for the lock.
    const again = await look(options, clock);
    if (again.kind === "ready") return again.client;
    await clearAway(again, options, clock);
    (options.spawn ?? (await startingKeeper()).spawnKeeper)(paths);
    return awaitStart(options, clock);
  });
  return { client, first: first?.(client) };
}

/** Connects and says hello, within HELLO_TIMEOUT_MS (`first` right behind it); says what answered. */
async function look<T>(options: KeeperLaunchOptions, clock: Clock, first?: FirstRequest<T>): Promise<Found<T>> {
  const { paths, version } = options;
  // keeper.json once, and first: checked before anything is contacted (a token others can read is
  // no secret: KeeperFolderError), and a keeper writes it before it binds the socket (keeper-server.ts).
  const info = readKeeperInfo(paths.info);
  checkKeeperFile(paths.socket);
  let client: KeeperClient;
  try {
    client = await KeeperClient.open(paths.socket, { timeoutMs: HELLO_TIMEOUT_MS, clock });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT" || code === "ECONNREFUSED") return { kind: "absent" };
    return { kind: "hung", info, why: (error as Error).message };
  }
  if (!info) {
    client.close();
    return { kind: "hung", info, why: `a socket answers but ${paths.info} is missing or unreadable` };
  }
  try {
    const hello = client.request({ op: "hello", protocol: KEEPER_PROTOCOL, version, token: info.token });
    // The keeper reads them in order: `first` is served once hello is accepted, refused otherwise.
    const early = info.protocol === KEEPER_PROTOCOL && info.version === version ? first?.(client) : undefined;
    const answer = await within(hello, clock, HELLO_TIMEOUT_MS);
    if (!answer) {
      client.close();
      return { kind: "hung", info, why: `no answer to hello within ${HELLO_TIMEOUT_MS} ms` };
    }
    if (answer.version === version && info.protocol === KEEPER_PROTOCOL) return { kind: "ready", client, first: early };
    return { kind: "other", client, info };
  } catch (error) {
    client.close();
    const why = error instanceof Error ? error.message : String(error);
    return { kind: "hung", info, why: `hello refused: ${why}` };
  }
}

/** Makes room for a new keeper: asks another version to stop, kills a hung one; nothing for none. */
async function clearAway(found: Exclude<Found, { kind: "ready" }>, options: KeeperLaunchOptions, clock: Clock): Promise<void> {
  const { paths } = options;
  if (found.kind === "absent") return;
  if (found.kind === "other") {
    await within(found.client.request({ op: "stop" }).catch(() => {}), clock, HELLO_TIMEOUT_MS);
    found.client.close();
    if (await until(() => !existsSync(paths.socket), clock, STOP_WAIT_MS)) return;
  }
  const pid = found.info?.pid;
  const { isKeeperOf } = await startingKeeper();
  const isKeeper = options.isKeeper ?? ((target: number) => isKeeperOf(target, paths));
  if (pid !== undefined && pid !== process.pid && isKeeper(pid)) {
    const kill = options.kill ?? ((target, signal) => process.kill(target, signal));
    signal(kill, pid, "SIGTERM");
    if (!(await until(() => !isKeeper(pid), clock, KILL_GRACE_MS))) signal(kill, pid, "SIGKILL");
  } else if (pid !== undefined) {
    // Stale or planted: the pid may be anyone's, another home's keeper included. Only the socket goes.
    log.debug(`keeper: ${paths.info} names pid ${pid}, which is not this home's keeper; not signalling it`);
  }
  // Nobody answers on it any more: a new keeper binds its path afresh.
  try {
    unlinkSync(paths.socket);
  } catch {}
}

/** How a keeper is started and told apart: loaded only then (node:child_process), not by every warm command. */
function startingKeeper(): Promise<typeof import("./keeper-process.ts")> {
  return import("./keeper-process.ts");
}

/** Waits for the new keeper's hello, retrying the connect with a short growing pause. */
async function awaitStart(options: KeeperLaunchOptions, clock: Clock): Promise<KeeperClient> {
  const deadline = clock.now() + START_WAIT_MS;
  let wait = 5;
  let last = "no socket yet";
  for (;;) {
    const found = await look(options, clock);
    if (found.kind === "ready") return found.client;
    if (found.kind === "other") found.client.close();
    if (found.kind === "hung") last = found.why;
    if (clock.now() >= deadline) {
      throw new Error(`the connection keeper did not answer within ${START_WAIT_MS} ms (${last}); see ${options.paths.log}`);
    }
    // Short and slowly growing: a new keeper answers within tens of ms, and each ms waited past that is the first call's.
    await pause(clock, wait);
    wait = Math.min(wait + 2, 25);
  }
}

function signal(kill: (pid: number, signal: NodeJS.Signals) => void, pid: number, name: NodeJS.Signals): void {
  try {
    kill(pid, name);
  } catch {} // Gone already.
}
