/**
 * What a command and the connection keeper say to each other over the keeper's Unix socket: JSON-RPC
 * 2.0, one message per line each way, through the rpc layer as with any MCP peer. A command opens one
 * socket connection, sends `hello` (with the token only the user can read), then requests whose
 * method is the `op` below and whose params are the rest of it. While a request runs, the keeper
 * sends `keeper/event` notifications for it (progress, log lines, notes, warnings) and an `alive`
 * heartbeat; `notifications/cancelled` gives a call up; closing the socket cancels that command's
 * calls still running (the servers stay warm). Every message is defined here once, as a valibot
 * schema, and checked where it arrives. CONTRACT: both sides code against this.
 */
import { isAbsolute } from "node:path";
import * as v from "valibot";
import { ServerConfig, type ServerEntry } from "../mcp/config/server-config.ts";
import type { ServerStatus } from "../mcp/index.ts";
import { LoggingLevel } from "../mcp/light-index.ts";
import { CallToolResult, Implementation, ToolDefinition } from "../mcp/protocol.ts";
import { lazySchema } from "../system/lazy-schema.ts";
import { stringsObject, WholeObject } from "../system/whole-object.ts";

/** Changes whenever a message changes shape; a keeper speaking another one is replaced. */
export const KEEPER_PROTOCOL = 6;

/** How often a keeper busy with a command's connect or call says it is alive. */
export const KEEPER_HEARTBEAT_MS = 1000;
/** A command that hears nothing from a busy keeper for this long gives up on it. */
export const KEEPER_SILENCE_MS = 10_000;

/** Longer lines are refused (a tools/call result is bounded by the transport's own limit below it). */
export const MAX_KEEPER_LINE_BYTES = 512 * 1024 * 1024;

/** The notification that carries a `KeeperEvent`. */
export const KEEPER_EVENT_METHOD = "keeper/event";

/** More servers than any config holds; more roots than anyone passes with --root. */
const MAX_SERVERS = 256;
const MAX_ROOTS = 256;
/** More key=value words than a command line holds. */
const MAX_PAIRS = 4096;
const Text = v.pipe(v.string(), v.maxLength(64 * 1024));
const Count = v.pipe(v.number(), v.integer(), v.minValue(0));
/** The keeper works from its own folder: a relative path from a command would mean another place. */
const AbsolutePath = v.pipe(Text, v.check(isAbsolute, "must be an absolute path"));
/**
 * Objects taken whole, every own key kept (see whole-object.ts): a tool's arguments or an
 * environment may hold `__proto__`, `constructor` or `prototype` like any other name (a cold command sends them).
 */
const StringsObject = stringsObject("must be an object of strings");

/**
 * A command's entry, parsed again with the same schema the config file goes through: only a process
 * that read the user's token can send one, but a bug (or another version) must not slip an unchecked
 * entry into a spawn.
 */
const Entry = lazySchema(() => v.pipe(
  v.looseObject({
    name: Text,
    scope: v.picklist(["user", "project", "flag", "ad-hoc"]),
    source: Text,
    ok: v.boolean(),
    trust: v.optional(v.picklist(["needs-approval", "denied"])),
    config: v.optional(ServerConfig),
    error: v.optional(Text),
  }),
  v.check((entry) => (entry.ok ? entry.config !== undefined : entry.error !== undefined), "an entry needs a config (ok) or an error"),
  // The check above is ServerEntry's own union (ok with a config, or not with an error).
  v.transform((entry) => entry as ServerEntry),
));

/** How a stdio server of an entry is started, as the command would start it itself: the keeper's own env and cwd are never used. */
export const LaunchContext = lazySchema(() => v.object({
  /** The whole environment of the child, computed by the command (`serverEnvironment(config.env).env`). */
  env: StringsObject,
  /** The command's working directory (the child's, unless the entry names a `cwd`). */
  cwd: AbsolutePath,
}));
export type LaunchContext = v.InferOutput<typeof LaunchContext>;

/** One server a command wants, as it resolved it (entry after `${VAR}` expansion and `--timeout`). */
export const ServerRequest = lazySchema(() => v.object({ entry: Entry, launch: LaunchContext }));
export type ServerRequest = v.InferOutput<typeof ServerRequest>;

/** A request as the command writes it: `op` is the JSON-RPC method, the rest its params. */
export const KeeperRequest = lazySchema(() => v.variant("op", [
  v.object({ op: v.literal("hello"), protocol: v.number(), version: Text, token: Text }),
  /**
   * Connects (or reuses) each server: a warm connection is reused only while its fingerprint (the
   * resolved entry, the launch context and the roots) is unchanged. Statuses come back in the order
   * asked, exactly as a pool of the command's own would give them.
   */
  v.object({
    op: v.literal("connect"),
    servers: v.pipe(v.array(ServerRequest), v.maxLength(MAX_SERVERS)),
    roots: v.pipe(v.array(AbsolutePath), v.maxLength(MAX_ROOTS)),
    /**
     * Whether the servers are told the command answers their questions (the elicitation
     * capability), as the command's own pool would tell them: `mcp call` does, `tools` and `list`
     * do not (a server may offer other tools to a client that answers). Part of the fingerprint.
     * Absent: declared.
     */
    elicitation: v.optional(v.boolean()),
    /**
     * The command calls a tool on this socket next (`mcp call`): the connections stay in use from
     * this connect to the end of that call (or of the socket), so the gap between is no idle time
     * (an HTTP one keeps its stream, and does not list its tools again). Absent: false.
     */
    callFollows: v.optional(v.boolean()),
    /**
     * The one tool the command calls next (`mcp call`): a connected status lists only that tool when
     * the server has it (less to send and check before the call), else all of them (the command
     * names the nearest). Absent: all.
     */
    tool: v.optional(Text),
  }),
  /**
   * Calls a tool of a server named in this socket's last `connect`; sent while that connect is still
   * running (`mcp call` sends it right behind), it waits for it. A tool the connect's status does not
   * list is refused, nothing sent.
   */
  v.object({
    op: v.literal("call"),
    server: Text,
    tool: Text,
    arguments: WholeObject,
    /**
     * `mcp call`'s key=value words, converted by the tool's schema as the command would
     * (key-value-arguments.ts), to `arguments` ({} then): they go out before the schema comes back.
     */
    pairs: v.optional(v.pipe(v.array(Text), v.maxLength(MAX_PAIRS))),
    /** What the server's questions get: as `mcp call --elicitation`. */
    elicitation: v.picklist(["decline", "accept-defaults"]),
  }),
  v.object({ op: v.literal("status") }),
  /** Closes every warm connection of the server of this name (`mcp keeper stop <name>`, `mcp logout <name>`); answered once none is kept, while their servers still close. */
  v.object({ op: v.literal("close"), server: Text }),
  /** Closes every server and exits; answered before the servers are closed. */
  v.object({ op: v.literal("stop") }),
]));
export type KeeperRequest = v.InferOutput<typeof KeeperRequest>;
export type KeeperOp = KeeperRequest["op"];

const Identity = v.object({ version: Text, pid: Count, startedAt: v.number() });

export const KeeperConnectionInfo = lazySchema(() => v.object({
  name: Text,
  /** `stdio: …` / `http: …`, secrets redacted, as `mcp list` shows it. */
  description: Text,
  state: v.string(),
  /** How long it has been connected, and since its last use. */
  ageMs: v.number(),
  idleMs: v.number(),
  calls: Count,
  /** The first 12 hex digits of the fingerprint: tells two connections of one name apart. */
  fingerprint: Text,
  /** The resident memory of its server's process tree (stdio; none for HTTP, or where it cannot be read). */
  rssBytes: v.optional(Count),
}));
export type KeeperConnectionInfo = Omit<v.InferOutput<typeof KeeperConnectionInfo>, "state"> & { state: ServerStatus["state"] };

const StatusBase = { name: Text, scope: v.picklist(["user", "project", "flag", "ad-hoc"]), source: Text, description: Text, lastError: v.optional(Text) };
const Reason = v.string();
/** A server's status as the keeper's pool gives it (see ServerStatus). */
const Status = v.pipe(
  v.variant("state", [
    v.object({ ...StatusBase, state: v.literal("pending") }),
    v.object({
      ...StatusBase,
      state: v.literal("connected"),
      tools: v.array(ToolDefinition),
      serverInfo: v.optional(Implementation),
      protocolVersion: v.string(),
      era: v.optional(v.picklist(["modern", "legacy"])),
      connectMs: v.optional(v.number()),
    }),
    v.object({ ...StatusBase, state: v.literal("failed"), reason: Reason, stderr: v.array(v.string()), lost: v.optional(v.boolean()) }),
    v.object({ ...StatusBase, state: v.literal("needs-auth"), reason: Reason }),
    v.object({ ...StatusBase, state: v.literal("invalid"), reason: Reason }),
    v.object({ ...StatusBase, state: v.literal("disabled") }),
    v.object({ ...StatusBase, state: v.literal("needs-approval") }),
    v.object({ ...StatusBase, state: v.literal("denied") }),
  ]),
  // The variant is ServerStatus, field by field (a tool's schema is the pool's own).
  v.transform((status) => status as ServerStatus),
);

/** What each request is answered with, checked by the command before anyone reads it. */
export const KeeperResult = {
  hello: Identity,
  connect: v.object({ statuses: v.array(Status) }),
  call: v.object({ result: CallToolResult }),
  status: lazySchema(() => v.object({ ...Identity.entries, connections: v.array(v.pipe(KeeperConnectionInfo, v.transform((info) => info as KeeperConnectionInfo))) })),
  close: lazySchema(() => v.object({ closed: Count })),
  stop: lazySchema(() => v.object({})),
} satisfies Record<KeeperOp, v.GenericSchema>;
export type KeeperResult<Op extends KeeperOp> = v.InferOutput<(typeof KeeperResult)[Op]>;

const ProgressInfo = lazySchema(() => v.object({ progress: v.number(), total: v.optional(v.number()), message: v.optional(v.string()) }));
const LogEntry = lazySchema(() => v.object({ server: v.string(), level: LoggingLevel, logger: v.optional(v.string()), data: v.string() }));

/** What the keeper says about a running request (`requestId`) while it runs: the params of `keeper/event`. */
export const KeeperEvent = lazySchema(() => v.variant("event", [
  v.object({ requestId: Count, event: v.literal("progress"), progress: ProgressInfo }),
  v.object({ requestId: Count, event: v.literal("log"), entry: LogEntry }),
  /** A line of cat-code's own for stderr (a declined question), already sanitized. */
  v.object({ requestId: Count, event: v.literal("note"), line: v.string() }),
  /**
   * A warning the server's connection gave in the keeper (a tool left out), sent to each command that
   * connects it: the command logs it (`log.warn(message)`) as its own connect would have. Not sanitized.
   */
  v.object({ requestId: Count, event: v.literal("warning"), message: v.string() }),
  /**
   * Sent every KEEPER_HEARTBEAT_MS while the socket has a connect or call running, for no request in
   * particular: a command that hears nothing at all for KEEPER_SILENCE_MS knows the keeper hung, not
   * the server (whose own timeouts the keeper keeps), and gives up instead of waiting for ever.
   */
  v.object({ event: v.literal("alive") }),
]));
export type KeeperEvent = v.InferOutput<typeof KeeperEvent>;

/** The first problem of a message that failed its schema, as "path: message", for both ends' errors. */
export function describeIssue(issue: v.BaseIssue<unknown>): string {
  const where = issue.path?.map((item) => String(item.key)).join(".");
  return `${where ? `${where}: ` : ""}${issue.message}`;
}
