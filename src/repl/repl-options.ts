import type { ResumedConversation } from "../agent/conversation-log/conversation-recording.ts";
import type { PermissionMode } from "../agent/permission-mode.ts";
import type { PermissionRules } from "../agent/permission-rules.ts";
import type { ServerPool } from "../mcp/index.ts";
import type { LoadedSettings } from "../settings/settings.ts";
import type { Clock } from "../system/clock.ts";

/** What the REPL runs with (see ReplController). */
export interface ReplOptions {
  model: string;
  cwd: string;
  pool: ServerPool;
  allowAll: boolean;
  maxTurns?: number;
  /** CAT_CODE_HOME, where the session is saved; a resumed session (--continue, --resume) to go on with. */
  home?: string;
  resumed?: ResumedConversation;
  /** `cat-code "question"`: sent as if typed at the first prompt. */
  firstPrompt?: string;
  /** settings.json, as loaded (and warned about) at start; absent: loaded here. */
  settings?: LoadedSettings;
  /** --allowedTools and --disallowedTools: rules for this session only, listed by /permissions as the command line's. */
  rules?: PermissionRules;
  /** Render answers as Markdown on a terminal (settings.json's `markdown`; default true). */
  markdown?: boolean;
  /** Extended thinking and the max_tokens that leaves room for it (src/cli/agent-startup.ts). */
  thinking?: { budgetTokens: number };
  maxTokens?: number;
  /** Tokens of one MCP tool result the model gets (MAX_MCP_OUTPUT_TOKENS or the setting); default 25,000. */
  maxMcpOutputTokens?: number;
  input?: NodeJS.ReadableStream & { isTTY?: boolean };
  output?: NodeJS.WritableStream & { isTTY?: boolean };
  /** For the 2 s of `(Ctrl-C again to exit)` and the pace of servers' tool news. */
  clock?: Clock;
  /** The mode the session starts in (--permission-mode, else settings' permissions.defaultMode); Shift+Tab cycles it. */
  permissionMode?: PermissionMode;
}
