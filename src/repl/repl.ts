import type { ResumedSession } from "../agent/session/session-recording.ts";
import type { McpToolPool } from "../mcp/pool/tool-pool.ts";
import type { LoadedSettings } from "../settings/settings.ts";
import type { Clock } from "../system/clock.ts";
import { ReplController } from "./repl-controller.ts";

export interface ReplOptions {
  model: string;
  cwd: string;
  pool: McpToolPool;
  allowAll: boolean;
  maxTurns?: number;
  /** CAT_CODE_HOME, where the session is saved; a resumed session (--continue, --resume) to go on with. */
  home?: string;
  resumed?: ResumedSession;
  /** `cat-code "question"`: sent as if typed at the first prompt. */
  firstPrompt?: string;
  /** settings.json, as loaded (and warned about) at start; absent: loaded here. */
  settings?: LoadedSettings;
  /** Render answers as Markdown on a terminal (settings.json's `markdown`; default true). */
  markdown?: boolean;
  /** Extended thinking and the max_tokens that leaves room for it (src/cli/agent-startup.ts). */
  thinking?: { budgetTokens: number };
  maxTokens?: number;
  input?: NodeJS.ReadableStream & { isTTY?: boolean };
  output?: NodeJS.WritableStream & { isTTY?: boolean };
  /** For the 2 s of `(Ctrl-C again to exit)` and the pace of servers' tool news. */
  clock?: Clock;
}

/**
 * The interactive agent (see ReplController): the REPL's entry point for `cat-code` without -p.
 * Resolves the exit code once the user has left and every server is closed.
 */
export function runRepl(options: ReplOptions): Promise<number> {
  return new ReplController(options).run();
}
