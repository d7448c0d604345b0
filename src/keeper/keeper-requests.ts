import { isAbsolute } from "node:path";
import * as v from "valibot";
import { ServerConfig } from "../mcp/config/server-config.ts";
import type { KeeperRequest } from "./keeper-protocol.ts";

/**
 * The keeper's edge: each line a command sends is checked here, once, before anything acts on it.
 * Only a process that read the user's token can send one, but a bug (or another version) must not
 * crash the keeper or slip an unchecked entry into a spawn: every entry's config is parsed again
 * with the same schema the config file goes through.
 */

/** More servers than any config holds; more roots than anyone passes with --root. */
const MAX_SERVERS = 256;
const MAX_ROOTS = 256;
const Text = v.pipe(v.string(), v.maxLength(64 * 1024));
const Id = v.pipe(v.number(), v.integer(), v.minValue(0));
/** The keeper works from its own folder: a relative path from a command would mean another place. */
const AbsolutePath = v.pipe(Text, v.check(isAbsolute, "must be an absolute path"));

const Entry = v.looseObject({
  name: Text,
  scope: v.picklist(["user", "project", "flag", "ad-hoc"]),
  source: Text,
  ok: v.boolean(),
  trust: v.optional(v.picklist(["needs-approval", "denied"])),
  config: v.optional(ServerConfig),
  error: v.optional(Text),
});

const ServerRequestSchema = v.object({
  entry: v.pipe(
    Entry,
    v.check((entry) => (entry.ok ? entry.config !== undefined : entry.error !== undefined), "an entry needs a config (ok) or an error"),
  ),
  launch: v.object({ env: v.record(v.string(), v.string()), cwd: AbsolutePath }),
});

const Request = v.variant("op", [
  v.object({ id: Id, op: v.literal("hello"), protocol: v.number(), version: Text, token: Text }),
  v.object({
    id: Id,
    op: v.literal("connect"),
    servers: v.pipe(v.array(ServerRequestSchema), v.maxLength(MAX_SERVERS)),
    roots: v.pipe(v.array(AbsolutePath), v.maxLength(MAX_ROOTS)),
    elicitation: v.optional(v.boolean()),
    callFollows: v.optional(v.boolean()),
  }),
  v.object({
    id: Id,
    op: v.literal("call"),
    server: Text,
    tool: Text,
    arguments: v.record(v.string(), v.unknown()),
    elicitation: v.picklist(["decline", "accept-defaults"]),
  }),
  v.object({ id: Id, op: v.literal("cancel"), target: Id }),
  v.object({ id: Id, op: v.literal("status") }),
  v.object({ id: Id, op: v.literal("close"), server: Text }),
  v.object({ id: Id, op: v.literal("stop") }),
]);

type ParsedRequest = { ok: true; request: KeeperRequest } | { ok: false; id: number; reason: string };

/** One line from a command: the request, or why it is refused (with its id when it had one). */
export function parseKeeperRequest(line: string): ParsedRequest {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    return { ok: false, id: 0, reason: "the keeper got a line that is not JSON" };
  }
  const id = typeof (value as { id?: unknown })?.id === "number" ? (value as { id: number }).id : 0;
  const parsed = v.safeParse(Request, value);
  if (!parsed.success) {
    const issue = parsed.issues[0];
    const where = issue.path?.map((item) => String(item.key)).join(".");
    return { ok: false, id, reason: `the keeper refused a request: ${where ? `${where}: ` : ""}${issue.message}` };
  }
  return { ok: true, request: parsed.output as KeeperRequest };
}
