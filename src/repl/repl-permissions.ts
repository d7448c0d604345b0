import type { PermissionGate, PermissionRequest } from "../agent/permission.ts";
import { withPolicy } from "../agent/permission-policy.ts";
import type { PermissionModeState } from "../agent/permission-mode.ts";
import type { PermissionRules } from "../agent/permission-rules.ts";
import { loadSettings } from "../settings/load-settings.ts";
import { PermissionSettings } from "../settings/permission-settings.ts";
import type { LoadedSettings } from "../settings/settings.ts";
import { interactivePermissions, type Ask, type PermissionPromptOptions } from "./permission-prompt.ts";

/**
 * The REPL's permissions: the policy first (deny rules and plan mode refuse; allow rules, read-only
 * commands and accept-edits mode allow, see decidePermission), then the question, whose "always"
 * saves a rule the next call already sees. With --allow-all, nothing is asked, but deny rules and
 * plan mode still hold.
 */
export function replPermissions(options: {
  cwd: string;
  settings?: LoadedSettings;
  /** --allowedTools and --disallowedTools (checked already): this session's rules besides the settings'. */
  rules?: PermissionRules;
  allowAll: boolean;
  mode: PermissionModeState;
  ask: Ask;
  prompt: PermissionPromptOptions;
  /** Holds the terminal while the question is open (TerminalQuestions.ask); a rule's answer needs no terminal. */
  hold: <T>(question: () => Promise<T>, request: PermissionRequest) => Promise<T>;
}): { gate: PermissionGate; settings: PermissionSettings; allowDuring: (rules: readonly string[]) => () => void } {
  const settings = new PermissionSettings(options.settings ?? loadSettings({ cwd: options.cwd }), { cwd: options.cwd, extra: options.rules });
  const question = options.allowAll
    ? undefined
    : interactivePermissions(options.ask, {
        ...options.prompt,
        cwd: options.cwd,
        saveRule: (rule, scope) => settings.save(rule, scope),
        allowForSession: (rules) => settings.allowForSession(rules),
      });
  const asked: PermissionGate = question ? (request) => options.hold(() => question(request), request) : async () => "allow";
  // A user's custom command's allowed-tools: allow rules while its turn runs, gone after (allowDuring's stop).
  const during = new Set<readonly string[]>();
  const rules = () => {
    const base = settings.rules();
    return during.size ? { ...base, allow: [...base.allow, ...[...during].flat()] } : base;
  };
  const allowDuring = (extra: readonly string[]) => {
    during.add(extra);
    return () => void during.delete(extra);
  };
  return { gate: withPolicy({ rules, mode: () => options.mode.mode, cwd: options.cwd }, asked), settings, allowDuring };
}
