/**
 * Claude Code's hooks, as settings.json writes them:
 * `{"hooks": {"PreToolUse": [{"matcher": "Edit|Write", "hooks": [{"type": "command", "command": "…", "timeout": 30}]}]}}`.
 * settings.ts checks the shape; this is what the agent runs from.
 */
export const HOOK_EVENTS = ["PreToolUse", "PostToolUse", "UserPromptSubmit", "Stop", "SubagentStop", "SessionStart", "PreCompact", "Notification"] as const;
export type HookEvent = (typeof HOOK_EVENTS)[number];

export interface HookCommand {
  type: "command";
  command: string;
  /** Seconds; DEFAULT_HOOK_TIMEOUT_S when absent. */
  timeout?: number;
}

export interface HookMatcherGroup {
  /** Tool events: a tool name (`Bash`), alternatives or a regex (`Edit|Write`, `mcp__github__.*`); empty or `*`: every tool. */
  matcher?: string;
  hooks: HookCommand[];
}

export type HooksConfig = Partial<Record<HookEvent, HookMatcherGroup[]>>;

export const DEFAULT_HOOK_TIMEOUT_S = 60;

/** Claude Code's names for cat-code's built-in tools: the names hook matchers and scripts know. */
const CLAUDE_TOOL_NAMES: Record<string, string> = {
  bash: "Bash",
  read_file: "Read",
  write_file: "Write",
  edit_file: "Edit",
  glob: "Glob",
  grep: "Grep",
  web_fetch: "WebFetch",
  task: "Task",
  todo_write: "TodoWrite",
};

/** A tool's name as Claude Code's hooks see it; MCP tools (`mcp__server__tool`) and others as they are. */
export function claudeToolName(name: string): string {
  return CLAUDE_TOOL_NAMES[name] ?? name;
}

/**
 * The input as Claude Code's tools name its fields, so a script reading `.tool_input.file_path`
 * works: the file tools' `path` is also given as `file_path`, absolute.
 */
export function claudeToolInput(name: string, input: Record<string, unknown>, cwd: string): Record<string, unknown> {
  if (!["read_file", "write_file", "edit_file"].includes(name) || typeof input.path !== "string") return input;
  const absolute = input.path.startsWith("/") ? input.path : `${cwd.replace(/\/$/, "")}/${input.path}`;
  return { ...input, file_path: absolute };
}

/** A hook's rewritten input back in cat-code's fields: `file_path` is `path` again. */
export function fromClaudeToolInput(name: string, input: Record<string, unknown>): Record<string, unknown> {
  if (!["read_file", "write_file", "edit_file"].includes(name) || typeof input.file_path !== "string") return input;
  const { file_path, ...rest } = input;
  return { ...rest, path: file_path };
}

const compiled = new Map<string, RegExp | null>();

/**
 * Whether a matcher covers a value (a tool name, a SessionStart source, a PreCompact trigger):
 * absent, empty or `*` covers all; a plain name only itself; anything else is a regex that must
 * match the whole value. A regex that does not compile matches nothing.
 */
export function matcherMatches(matcher: string | undefined, value: string | undefined): boolean {
  if (matcher === undefined || matcher === "" || matcher === "*") return true;
  if (value === undefined) return false;
  if (/^[\w-]+$/.test(matcher)) return matcher === value;
  let regex = compiled.get(matcher);
  if (regex === undefined) {
    try {
      regex = new RegExp(`^(?:${matcher})$`);
    } catch {
      regex = null;
    }
    if (compiled.size > 1000) compiled.clear();
    compiled.set(matcher, regex);
  }
  return regex?.test(value) ?? false;
}
