import { realpathSync } from "node:fs";
import { dirname, join } from "node:path";
import * as v from "valibot";
import { isPlainObject } from "../../system/plain-object.ts";
import { ConfigError } from "../../config/config-error.ts";
import { readConfigText } from "../../config/config-file-text.ts";
import { readProperty, setProperty } from "../../config/json-edit.ts";
import { catCodeHome } from "../../config/app-home.ts";
import { updateFile } from "../../config/locked-file.ts";
import { sha256Hex } from "../../system/light-crypto.ts";
import type { ServerEntry } from "./server-config.ts";

/**
 * A project's `.mcp.json` can arrive with a cloned repository, so its servers start only once the
 * user approves them. An approval holds for one project folder (its real path) and one entry in the
 * exact form approved: a changed entry asks again. A refusal holds for the name until approved.
 */
export type ApprovalDecision = "approved" | "denied";

const ApprovalRecord = v.looseObject({
  decision: v.picklist(["approved", "denied"]),
  fingerprint: v.string(),
});

/** `approvals.json` in CAT_CODE_HOME: project folder → server name → decision. */
export const ApprovalsFile = v.looseObject({
  projects: v.optional(v.record(v.string(), v.record(v.string(), ApprovalRecord)), {}),
});
export type ApprovalsFile = v.InferOutput<typeof ApprovalsFile>;

type Env = Record<string, string | undefined>;

export function approvalsPath(env: Env = process.env): string {
  return join(catCodeHome(env), "approvals.json");
}

/** `sha256:<hex>` of the entry's canonical JSON (keys sorted), as written: before `${VAR}` expansion. */
export function entryFingerprint(raw: unknown): string {
  return `sha256:${sha256Hex(canonicalJson(raw))}`;
}

/** The project folder an entry belongs to: the real path of its `.mcp.json`'s folder. */
export function projectFolder(entry: ServerEntry): string {
  const folder = dirname(entry.source);
  try {
    return realpathSync(folder);
  } catch {
    return folder;
  }
}

/**
 * Reads the recorded decisions. Fail-closed: a corrupt file is a warning and counts as no
 * approvals, so project servers wait rather than start.
 */
export function readApprovals(env: Env = process.env): { approvals: ApprovalsFile; warnings: string[] } {
  const path = approvalsPath(env);
  const none = { projects: {} };
  try {
    const read = readConfigText(path);
    if (read === undefined) return { approvals: none, warnings: [] };
    const parsed = v.safeParse(ApprovalsFile, readProperty(read.text, []) ?? {});
    if (parsed.success) return { approvals: parsed.output, warnings: [] };
    return { approvals: none, warnings: [`${path}: ${parsed.issues[0]?.message}; project MCP servers need approval again`] };
  } catch (error) {
    return { approvals: none, warnings: [`${path}: ${(error as Error).message}; project MCP servers need approval again`] };
  }
}

/** Marks each project entry that may not start yet with its `trust`; other entries pass unchanged. */
export function applyApprovals(entries: ServerEntry[], approvals: ApprovalsFile): ServerEntry[] {
  return entries.map((entry) => {
    if (entry.scope !== "project") return entry;
    const record = approvals.projects[projectFolder(entry)]?.[entry.name];
    if (record?.decision === "denied") return { ...entry, trust: "denied" };
    if (record?.decision === "approved" && record.fingerprint === entryFingerprint(entry.raw)) {
      const { trust: _, ...trusted } = entry;
      return trusted as ServerEntry;
    }
    return { ...entry, trust: "needs-approval" };
  });
}

/**
 * The project servers to ask the user about: valid, enabled, and neither approved in their current
 * form nor refused. For the REPL at start-up; answer each with `recordApproval`.
 */
export function pendingApprovals(entries: ServerEntry[]): ServerEntry[] {
  return entries.filter((entry) => entry.trust === "needs-approval" && entry.ok && !entry.config.disabled);
}

/**
 * Records the user's decision about one project entry in `approvals.json` (locked, atomic; every
 * other record kept) and returns the entry as it now stands: without `trust` when approved, so it
 * can go to the pool; `trust: "denied"` when refused.
 */
export async function recordApproval(entry: ServerEntry, decision: ApprovalDecision, env: Env = process.env): Promise<ServerEntry> {
  if (entry.scope !== "project") throw new Error(`only project servers need approval; '${entry.name}' is a ${entry.scope} server`);
  const path = approvalsPath(env);
  const record = { decision, fingerprint: entryFingerprint(entry.raw), decidedAt: new Date().toISOString() };
  await updateFile(
    path,
    (current) => {
      try {
        return setProperty(current ?? "", ["projects", projectFolder(entry), entry.name], record);
      } catch (error) {
        if (!(error instanceof ConfigError) || error.path !== undefined) throw error;
        throw new ConfigError(`${path}: ${error.message}; fix or delete it, then try again`, error.kind, path);
      }
    },
    { mode: 0o600 },
  );
  if (decision === "denied") return { ...entry, trust: "denied" };
  const { trust: _, ...approved } = entry;
  return approved as ServerEntry;
}

function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`;
  if (isPlainObject(value)) {
    const keys = Object.keys(value).sort();
    return `{${keys.map((key) => `${JSON.stringify(key)}:${canonicalJson(value[key])}`).join(",")}}`;
  }
  return JSON.stringify(value) ?? "null";
}
