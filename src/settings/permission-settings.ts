import { ConfigError } from "../config/config-error.ts";
import { loadSettings } from "./load-settings.ts";
import { recordProjectTrust } from "./project-trust.ts";
import type { LoadedSettings, PermissionList, RuleSource } from "./settings.ts";

/** The rule lists the permission policy reads (src/agent/permission-rules.ts' PermissionRules). */
type PermissionRules = { allow: readonly string[]; deny: readonly string[]; ask?: readonly string[] };
import { addPermissionRule, removePermissionRule } from "./settings-writer.ts";

type Env = Record<string, string | undefined>;

/** Where a rule shown by /permissions comes from: a settings file, or the command line (--allowedTools). */
export type ListedRule = Omit<RuleSource, "scope"> & { scope: RuleSource["scope"] | "command line" };

/**
 * The permission rules of one session, as the REPL changes them: `rules()` is what withRules reads
 * at every call, so a rule saved or removed here holds for the next call at once. Saving and
 * removing write the settings files (see settings-writer.ts) and then read them again, so what is
 * in force is always what the files say, plus the command line's rules and any rule that could
 * not be saved (it holds for this session only).
 */
export class PermissionSettings {
  private untilExit: string[] = [];

  constructor(
    private loaded: LoadedSettings,
    private readonly options: { cwd: string; env?: Env; extra?: PermissionRules },
  ) {}

  get userFile(): string {
    return this.loaded.userFile;
  }

  get projectFile(): string {
    return this.loaded.projectFile;
  }

  /** Project allow rules waiting for the user's trust. */
  get untrustedAllow(): readonly string[] {
    return this.loaded.untrustedAllow;
  }

  rules(): PermissionRules {
    const { allow, deny, ask } = this.loaded.settings.permissions;
    const extra = this.options.extra ?? { allow: [], deny: [] };
    return { allow: [...allow, ...extra.allow, ...this.untilExit], deny: [...deny, ...extra.deny], ask: [...ask, ...(extra.ask ?? [])] };
  }

  list(): ListedRule[] {
    const extra = this.options.extra ?? { allow: [], deny: [] };
    const fromCommandLine = (list: "allow" | "deny") => extra[list].map((rule): ListedRule => ({ rule, list, scope: "command line", file: "", state: "active" }));
    return [...this.loaded.rules, ...fromCommandLine("deny"), ...fromCommandLine("allow")];
  }

  /**
   * Saves an allow rule to the project's settings (trusted at once: the user made it here) or the
   * user's; resolves the file written. A write that fails keeps the rule for this session and throws.
   */
  async save(rule: string, scope: "project" | "user"): Promise<string> {
    try {
      return await this.add("allow", rule, scope);
    } catch (error) {
      this.untilExit.push(rule);
      throw error;
    }
  }

  /**
   * Adds a rule to a list of the project's settings or the user's (`/permissions add`); resolves the
   * file written. An allow rule the user adds to the project is trusted at once (the user made it
   * here); deny and ask rules only ask more and need no trust. The rule's syntax is checked by the caller.
   */
  async add(list: PermissionList, rule: string, scope: "project" | "user"): Promise<string> {
    const file = scope === "project" ? this.loaded.projectFile : this.loaded.userFile;
    if (scope === "project" && list === "allow") await recordProjectTrust(this.options.cwd, [rule], "trusted", this.env);
    await addPermissionRule(file, list, rule, { mode: scope === "user" ? 0o600 : undefined });
    this.reload();
    return file;
  }

  /** Allows rules until cat-code exits, written nowhere (the question's "yes, don't ask again this session"). */
  allowForSession(rules: readonly string[]): void {
    for (const rule of rules) if (!this.untilExit.includes(rule)) this.untilExit.push(rule);
  }

  /** Removes a rule from every settings file that has it; resolves those files (none: it was not there). */
  async remove(rule: string): Promise<string[]> {
    this.untilExit = this.untilExit.filter((r) => r !== rule);
    const places = this.loaded.rules.filter((source) => source.rule === rule);
    const files: string[] = [];
    for (const { file, list } of places) {
      if (await removePermissionRule(file, list, rule)) files.push(file);
    }
    this.reload();
    return [...new Set(files)];
  }

  /** Records the user's word about the project's untrusted allow rules; trusted ones hold at once. */
  async trust(rules: readonly string[], decision: "trusted" | "refused"): Promise<void> {
    await recordProjectTrust(this.options.cwd, rules, decision, this.env);
    this.reload();
  }

  private get env(): Env {
    return this.options.env ?? process.env;
  }

  private reload(): void {
    try {
      this.loaded = loadSettings({ cwd: this.options.cwd, env: this.options.env });
    } catch (error) {
      // loadSettings is fail-open and does not throw for a file's content; keep what was in force.
      if (!(error instanceof ConfigError)) throw error;
    }
  }
}
