import type { ResumedConversation } from "../agent/conversation-log/conversation-recording.ts";
import type { ElicitationHandler, ServerPool } from "../mcp/index.ts";
import type { Clock } from "../system/clock.ts";
import { sanitizeForTerminal } from "../terminal/terminal-text.ts";
import { wrapIndented } from "../terminal/text-wrap.ts";
import { VERSION } from "../version.ts";
import type { AgentRuntime } from "./agent-runtime.ts";
import type { AnswerDisplay } from "./answer-display.ts";
import { memoryWarningLines } from "./memory-command.ts";
import { listenToPool } from "./pool-listeners.ts";
import type { ReplRecording } from "./repl-recording.ts";
import type { ResourceUpdates } from "./resource-updates.ts";
import { ToolChangeNews } from "./tool-change-news.ts";
import type { Style } from "./tool-call-line.ts";
import type { TurnRenderer } from "./turn-renderer.ts";

/** What the REPL starts with: its options, its parts, and where lines go. */
export interface ReplStartContext {
  model: string;
  resumed?: ResumedConversation;
  pool: ServerPool;
  clock?: Clock;
  runtime: AgentRuntime;
  display: AnswerDisplay;
  saved: ReplRecording;
  resourceUpdates: ResourceUpdates;
  style: Style;
  columns: number | undefined;
  print: (text: string) => void;
  /** News for the prompt (see ReplController.news). */
  news: (line: string) => void;
  /** The running turn's renderer, if a turn runs: notices go between its lines. */
  turnRenderer: () => TurnRenderer | undefined;
  /** Answers a server's question (see ReplController.onElicitation). */
  elicitation: ElicitationHandler;
}

/** What the REPL steers after the start: the servers' log budget per prompt, and the listeners to stop on the way out. */
export interface ReplListening {
  resetLogLines(): void;
  close(): void;
}

/** The banner and what goes with it; then the servers start connecting, and their news is heard. */
export function startRepl(context: ReplStartContext): ReplListening {
  const { runtime, style, print, news, columns } = context;
  // The model may come from a settings file (a project's, once trusted) or CAT_CODE_MODEL: not the terminal's to act on.
  // Wrapped between words at the terminal's width (a narrow window must not cut `Ctrl-D` in two).
  const banner = `cat-code ${VERSION} · ${sanitizeForTerminal(context.model)} · /help for commands, Ctrl-D twice to exit`;
  for (const line of columns ? wrapIndented(banner, Math.max(20, columns - 1)) : [banner]) print(line);
  for (const line of memoryWarningLines(runtime.memory)) print(style.dim(line));
  for (const line of runtime.agentTypeWarnings) print(style.dim(`warning: ${sanitizeForTerminal(line)}`));
  if (!runtime.hasCredentials) print(style.dim("ANTHROPIC_API_KEY is not set: /mcp and /tools work; prompts need the key."));
  for (const line of context.saved.resumedLines(columns)) print(style.dim(line));
  // A resumed conversation is loaded into the agent now, so /cost and /compact see it before a prompt.
  if (context.resumed) runtime.agentOrMissingKey();

  // A hook's line (it failed, timed out, or has a message) between a turn's lines, or as news.
  runtime.hooks.onNotice((line) => {
    const shown = style.dim(`⎿ ${sanitizeForTerminal(line)}`);
    const renderer = context.turnRenderer();
    if (renderer) renderer.notice(shown);
    else news(shown);
  });
  void runtime.hooks.sessionStart(context.resumed ? "resume" : "startup");

  context.display.preload();
  // After the prompt is drawn: spawning the servers' processes would otherwise delay it.
  setImmediate(() => void runtime.connectMcp().then((summary) => summary.line && news(summary.line)));
  // A server may change its tools in a loop: at most one line per server every few seconds.
  const toolNews = new ToolChangeNews(news, context.clock);
  // A server's warning (or its coming and going) during a turn is shown at once, between the turn's lines; otherwise as news.
  const serverLine = (line: string) => {
    const renderer = context.turnRenderer();
    return renderer ? renderer.notice(line) : news(line);
  };
  const listening = listenToPool(context.pool, {
    elicitation: context.elicitation,
    toolsChanged: (server, tools) => {
      runtime.syncResourceTools();
      toolNews.changed(server, tools);
    },
    resourceUpdated: (server, uri) => context.resourceUpdates.updated(server, uri),
    serverLog: serverLine,
    serverEvent: serverLine,
  });
  return {
    resetLogLines: listening.resetLogLines,
    close: () => {
      toolNews.close();
      listening.detach();
    },
  };
}
