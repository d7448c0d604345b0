import * as v from "valibot";
import type { PermissionMode } from "../system/permission-mode-name.ts";
import { MIN_THINKING_BUDGET } from "../system/thinking-budget.ts";

/**
 * settings.json: the user's (`$CAT_CODE_HOME/settings.json`) and the project's
 * (`<cwd>/.cat-code/settings.json`), both optional, JSON with comments. Every key is optional.
 */
export interface Settings {
  /** The model id, used when neither --model nor CAT_CODE_MODEL is given. */
  model?: v.InferOutput<typeof Model>;
  /** Extended thinking: true for the default budget, or the budget in tokens. */
  thinking?: v.InferOutput<typeof Thinking>;
  /** Compact the conversation on its own near the context window's end (default true). */
  autoCompact?: boolean;
  /**
   * Permission rules in Claude Code's syntax (see src/agent/permission-rules.ts): deny wins, then ask,
   * then allow; and the mode a session starts in (`--permission-mode` wins).
   */
  permissions: { allow: string[]; deny: string[]; ask: string[]; defaultMode?: PermissionMode };
  /** Environment variables for cat-code and the servers it starts; from the user's file only. */
  env: v.InferOutput<typeof Env>;
  /** Render answers as Markdown at a terminal (default true). */
  markdown?: boolean;
  /** When servers' tools wait behind the tool search: "auto" (default), "auto:<percent>", "always", "never". */
  toolSearch?: string;
  /** Tokens of one MCP tool result the model gets before the rest is cut and saved (default 25,000); env MAX_MCP_OUTPUT_TOKENS wins. */
  maxMcpOutputTokens?: number;
  /** MCP servers not started in this project (`/mcp disable` writes the project's file). */
  disabledMcpServers?: string[];
  /** Claude Code's hooks: commands run at events (src/agent/hooks); the user's and the trusted project's add up. */
  hooks?: v.InferOutput<typeof Hooks>;
}

export interface LoadedSettings {
  settings: Settings;
  /** One line per problem, each naming the file (and the key); the program still starts. */
  warnings: string[];
  userFile: string;
  projectFile: string;
  /** Project allow rules not yet trusted (left out of settings.permissions.allow until trusted). */
  untrustedAllow: string[];
  /**
   * The project's `model`/`thinking` values not yet trusted here, as `model: "…"` (left out of
   * settings until trusted: the user's own values, if any, hold meanwhile).
   */
  untrustedSettings: string[];
  /** Every valid rule with its file and whether it is in force, for /permissions. */
  rules: RuleSource[];
}

export interface RuleSource {
  rule: string;
  list: PermissionList;
  scope: "user" | "project";
  file: string;
  /**
   * "active": in force. A project allow rule is "untrusted" until the user trusts it for this
   * folder, "refused" once they said never (see project-trust.ts).
   */
  state: "active" | "untrusted" | "refused";
}

/** Every way a value can be wrong says the same: what the key allows, as a warning shows it. */
const mustBe = (key: string, allowed: string) => `"${key}" must be ${allowed}`;
const TRUE_OR_FALSE = "true or false";

const MODEL = mustBe("model", 'a model id such as "claude-sonnet-4-5"');
const Model = v.pipe(v.string(MODEL), v.nonEmpty(MODEL));

const THINKING = mustBe("thinking", `true, false or {"budgetTokens": <a whole number of at least ${MIN_THINKING_BUDGET}>}`);
const Thinking = v.union(
  [
    v.boolean(THINKING),
    v.strictObject({ budgetTokens: v.pipe(v.number(THINKING), v.integer(THINKING), v.minValue(MIN_THINKING_BUDGET, THINKING)) }, THINKING),
  ],
  THINKING,
);

const TOOL_SEARCH = mustBe("toolSearch", '"auto", "auto:<percent>" (0-100), "always" or "never"');
const ToolSearch = v.pipe(v.string(TOOL_SEARCH), v.regex(/^(auto|always|never|auto:(100|\d{1,2})(\.\d+)?)$/, TOOL_SEARCH));
const MAX_MCP_OUTPUT_TOKENS = mustBe("maxMcpOutputTokens", "a whole number of tokens of at least 1, e.g. 25000");

const DISABLED_MCP_SERVERS = mustBe("disabledMcpServers", 'a list of server names, e.g. ["github"]');

const ENV = mustBe("env", 'an object of string values, e.g. {"NAME": "value"}');
const Env = v.record(v.string(ENV), v.string(ENV), ENV);

const HOOK_EVENT_NAMES = ["PreToolUse", "PostToolUse", "UserPromptSubmit", "Stop", "SubagentStop", "SessionStart", "PreCompact", "Notification"] as const;
const HOOKS = mustBe("hooks", `an object of events (${HOOK_EVENT_NAMES.join(", ")}), each a list of {"matcher": "Bash", "hooks": [{"type": "command", "command": "…", "timeout": 60}]}`);
const HookCommand = v.object(
  {
    type: v.literal("command", HOOKS),
    command: v.pipe(v.string(HOOKS), v.nonEmpty(HOOKS), v.maxLength(10_000, HOOKS)),
    timeout: v.optional(v.pipe(v.number(HOOKS), v.minValue(1, HOOKS), v.maxValue(3600, HOOKS))),
  },
  HOOKS,
);
const HookMatcherGroup = v.object({ matcher: v.optional(v.string(HOOKS)), hooks: v.pipe(v.array(HookCommand, HOOKS), v.maxLength(100, HOOKS)) }, HOOKS);
const Hooks = v.record(v.picklist(HOOK_EVENT_NAMES, HOOKS), v.pipe(v.array(HookMatcherGroup, HOOKS), v.maxLength(100, HOOKS)), HOOKS);

/**
 * Each key's schema, as server-config.ts has each field's: a value that fails is left out, with
 * its schema's message. `permissions` is read apart: each of its rules is kept or left out alone.
 */
export const SETTING_KEYS = {
  model: Model,
  thinking: Thinking,
  autoCompact: v.boolean(mustBe("autoCompact", TRUE_OR_FALSE)),
  markdown: v.boolean(mustBe("markdown", TRUE_OR_FALSE)),
  env: Env,
  toolSearch: ToolSearch,
  maxMcpOutputTokens: v.pipe(v.number(MAX_MCP_OUTPUT_TOKENS), v.integer(MAX_MCP_OUTPUT_TOKENS), v.minValue(1, MAX_MCP_OUTPUT_TOKENS)),
  disabledMcpServers: v.array(v.string(DISABLED_MCP_SERVERS), DISABLED_MCP_SERVERS),
  hooks: Hooks,
} as const;

/** The rule lists inside "permissions" (besides them: "defaultMode"). */
export const PERMISSION_LISTS = ["allow", "deny", "ask"] as const;
export type PermissionList = (typeof PERMISSION_LISTS)[number];

export function emptySettings(): Settings {
  return { permissions: { allow: [], deny: [], ask: [] }, env: {} };
}
