import { realpathSync } from "node:fs";
import * as v from "valibot";
import { approvalsPath } from "../mcp/config/project-approval.ts";
import { readConfigText } from "../config/config-file-text.ts";
import { ConfigError } from "../config/config-error.ts";
import { readProperty, setProperty } from "../config/json-edit.ts";
import { updateFile } from "../config/locked-file.ts";

/**
 * A project's `.cat-code/settings.json` comes with a cloned repository, so its allow rules (which
 * run commands without asking) hold only once the user trusted them, as a project's MCP servers
 * start only once approved. Trust is kept per project folder (its real path) and per rule, exactly
 * as written, in the same `approvals.json` (under "permissionRules"): a rule added later by a
 * `git pull` is asked about again; one the REPL saved there itself is trusted as it is saved.
 * A project's `model` and `thinking` (they choose what the user pays for) and `hooks` (commands it
 * runs) are trusted the same way,
 * per value as written (`model: "claude-opus-4-1"`), under "projectSettings".
 */
/** What the user said about a project's entries of one kind (rules as written, or `model: "…"` values). */
export interface ProjectTrust {
  trusted: Set<string>;
  refused: Set<string>;
}

const FolderTrust = v.looseObject({
  trusted: v.optional(v.array(v.string()), []),
  refused: v.optional(v.array(v.string()), []),
});

type Env = Record<string, string | undefined>;

/** Which of a project's trusted things: its allow rules, or its `model`/`thinking` values. */
export type TrustKind = "permissionRules" | "projectSettings";

const NEEDS_TRUST_AGAIN: Record<TrustKind, string> = {
  permissionRules: "the project's allow rules need trusting again",
  projectSettings: "the project's model, thinking and hooks settings need trusting again",
};

/** The folder a project's trust is kept under. */
export function trustFolder(cwd: string): string {
  try {
    return realpathSync(cwd);
  } catch {
    return cwd;
  }
}

/** Fail-closed: a corrupt approvals.json trusts nothing (and says so). */
export function readProjectTrust(cwd: string, env: Env, kind: TrustKind = "permissionRules"): { trust: ProjectTrust; warning?: string } {
  const none = { trusted: new Set<string>(), refused: new Set<string>() };
  const path = approvalsPath(env);
  try {
    const read = readConfigText(path);
    if (read === undefined) return { trust: none };
    const raw = readProperty(read.text, [kind, trustFolder(cwd)]);
    if (raw === undefined) return { trust: none };
    const parsed = v.safeParse(FolderTrust, raw);
    if (!parsed.success) return { trust: none, warning: `${path}: "${kind}" is not as cat-code wrote it; ${NEEDS_TRUST_AGAIN[kind]}` };
    return { trust: { trusted: new Set(parsed.output.trusted), refused: new Set(parsed.output.refused) } };
  } catch (error) {
    return { trust: none, warning: `${path}: ${(error as Error).message}; ${NEEDS_TRUST_AGAIN[kind]}` };
  }
}

/**
 * Records the user's word about some of a project's allow rules, or its `model`/`thinking` values
 * (locked, atomic; every other record kept): "trusted" ones hold from now on, "refused" ones are not
 * asked about again.
 */
export async function recordProjectTrust(cwd: string, entries: readonly string[], decision: "trusted" | "refused", env: Env, kind: TrustKind = "permissionRules"): Promise<void> {
  const path = approvalsPath(env);
  const key = [kind, trustFolder(cwd)];
  await updateFile(
    path,
    (current) => {
      try {
        const parsed = v.safeParse(FolderTrust, readProperty(current ?? "", key) ?? {});
        const record = parsed.success ? parsed.output : { trusted: [], refused: [] };
        const other = decision === "trusted" ? "refused" : "trusted";
        const next = {
          ...record,
          [decision]: [...new Set([...record[decision], ...entries])],
          [other]: record[other].filter((entry) => !entries.includes(entry)),
        };
        return setProperty(current ?? "", key, next);
      } catch (error) {
        if (!(error instanceof ConfigError) || error.path !== undefined) throw error;
        throw new ConfigError(`${path}: ${error.message}; fix or delete it, then try again`, error.kind, path);
      }
    },
    { mode: 0o600 },
  );
}
