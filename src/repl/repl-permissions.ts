import type { PermissionGate } from "../agent/permission.ts";
import { withPolicy } from "../agent/permission-policy.ts";
import type { PermissionModeState } from "../agent/permission-mode.ts";
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
  allowAll: boolean;
  mode: PermissionModeState;
  ask: Ask;
  prompt: PermissionPromptOptions;
  /** Holds the terminal while the question is open (TerminalQuestions.ask); a rule's answer needs no terminal. */
  hold: <T>(question: () => Promise<T>) => Promise<T>;
}): { gate: PermissionGate; settings: PermissionSettings } {
  const settings = new PermissionSettings(options.settings ?? loadSettings({ cwd: options.cwd }), { cwd: options.cwd });
  const question = options.allowAll
    ? undefined
    : interactivePermissions(options.ask, {
        ...options.prompt,
        cwd: options.cwd,
        saveRule: (rule, scope) => settings.save(rule, scope),
        allowForSession: (rules) => settings.allowForSession(rules),
      });
  const asked: PermissionGate = question ? (request) => options.hold(() => question(request)) : async () => "allow";
  return { gate: withPolicy({ rules: () => settings.rules(), mode: () => options.mode.mode, cwd: options.cwd }, asked), settings };
}
