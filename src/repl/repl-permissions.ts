import type { PermissionGate } from "../agent/permission.ts";
import { withRules, type PermissionRules } from "../agent/permission-rules.ts";
import { loadSettings } from "../settings/load-settings.ts";
import { PermissionSettings } from "../settings/permission-settings.ts";
import type { LoadedSettings } from "../settings/settings.ts";
import { interactivePermissions, type Ask, type PermissionPromptOptions } from "./permission-prompt.ts";

/**
 * The REPL's permissions: the settings' rules first (deny without asking, allow without asking),
 * then the question, whose "always" saves a rule the next call already sees. With --allow-all,
 * nothing is asked, but deny rules still hold.
 */
export function replPermissions(options: {
  cwd: string;
  settings?: LoadedSettings;
  /** --allowedTools and --disallowedTools (checked already): this session's rules besides the settings'. */
  rules?: PermissionRules;
  allowAll: boolean;
  ask: Ask;
  prompt: PermissionPromptOptions;
  /** Holds the terminal while the question is open (TerminalQuestions.ask); a rule's answer needs no terminal. */
  hold: <T>(question: () => Promise<T>) => Promise<T>;
}): { gate: PermissionGate; settings: PermissionSettings; allowDuring: (rules: readonly string[]) => () => void } {
  const settings = new PermissionSettings(options.settings ?? loadSettings({ cwd: options.cwd }), { cwd: options.cwd, extra: options.rules });
  const question = options.allowAll
    ? undefined
    : interactivePermissions(options.ask, { ...options.prompt, cwd: options.cwd, saveRule: (rule, scope) => settings.save(rule, scope) });
  const asked: PermissionGate = question ? (request) => options.hold(() => question(request)) : async () => "allow";
  // A user's custom command's allowed-tools: allow rules while its turn runs, gone after (allowDuring's stop).
  const during = new Set<readonly string[]>();
  const rules = () => {
    const base = settings.rules();
    return during.size ? { allow: [...base.allow, ...[...during].flat()], deny: base.deny } : base;
  };
  const allowDuring = (extra: readonly string[]) => {
    during.add(extra);
    return () => void during.delete(extra);
  };
  return { gate: withRules(rules, asked, options.cwd), settings, allowDuring };
}
