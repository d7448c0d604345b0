import { parseRule, type PermissionRules } from "../agent/permission-rules.ts";
import { wrapperOnlyProblem } from "../system/permission-rule-syntax.ts";
import { CliError } from "../terminal/cli-error.ts";
import { sanitizeForTerminal } from "../terminal/terminal-text.ts";

/**
 * --allowedTools and --disallowedTools: rules in settings.json's syntax, checked before anything
 * starts (a mistyped rule would otherwise allow or deny nothing, silently).
 */
export function checkedRules(rules: PermissionRules): PermissionRules {
  for (const [flag, list] of [["--allowedTools", rules.allow], ["--disallowedTools", rules.deny]] as const) {
    for (const rule of list) {
      const parsed = parseRule(rule);
      if (!parsed.ok) throw CliError.usage(`${flag}: '${sanitizeForTerminal(rule)}' is not a rule: ${parsed.error}`);
      const useless = flag === "--allowedTools" ? wrapperOnlyProblem(parsed.rule) : undefined;
      if (useless) throw CliError.usage(`${flag}: ${sanitizeForTerminal(useless)}`);
    }
  }
  return rules;
}
