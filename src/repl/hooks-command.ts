import { DEFAULT_HOOK_TIMEOUT_S, HOOK_EVENTS, type HooksConfig } from "../agent/hooks/hook-config.ts";
import { alignColumns, sanitizeForTerminal } from "../terminal/terminal-text.ts";

/**
 * `/hooks`: the hooks in force, event by event, in the order they are configured: the matcher
 * (`*` for all), the command as written, whole (it runs on the user's machine), and its timeout.
 */
export function hooksText(config: HooksConfig): string {
  const rows = HOOK_EVENTS.flatMap((event) =>
    (config[event] ?? []).flatMap((group) =>
      group.hooks.map((hook) => [event, sanitizeForTerminal(group.matcher || "*"), `${hook.timeout ?? DEFAULT_HOOK_TIMEOUT_S} s`, sanitizeForTerminal(hook.command)]),
    ),
  );
  if (rows.length === 0) {
    return 'No hooks. Add them to settings.json as Claude Code writes them: {"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "~/.claude/hooks/check.sh"}]}]}}';
  }
  return ["Hooks (event, matcher, timeout, command):", ...alignColumns(rows).map((line) => `  ${line}`), "A project's hooks hold once trusted in its folder (asked at start)."].join("\n");
}
