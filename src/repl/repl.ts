import { AgentError } from "../agent/agent-error.ts";
import type { RunOutcome } from "../agent/agent-loop.ts";
import { ServerLogLines } from "../terminal/server-log-lines.ts";
import { claimSignal } from "../terminal/shutdown.ts";
import { sanitizeForTerminal } from "../terminal/terminal-text.ts";
import type { McpToolPool } from "../mcp/index.ts";
import { VERSION } from "../version.ts";
import { AgentSession } from "./agent-session.ts";
import { memoryWarningLines } from "./memory-command.ts";
import { appendHistory, historyPath, loadHistory } from "./history-file.ts";
import { LineReader } from "./line-reader.ts";
import { showInPager } from "./pager.ts";
import { replPermissions } from "./repl-permissions.ts";
import type { LoadedSettings } from "../settings/settings.ts";
import { cancelKeys, interactiveElicitation } from "./elicitation-prompt.ts";
import { TerminalQuestions } from "./terminal-questions.ts";
import { declinedElicitation } from "../terminal/declined-elicitation.ts";
import { runSlashCommand } from "./slash-commands.ts";
import { createCompleter } from "./completion.ts";
import { mentionCompletion } from "./mention-completion.ts";
import { RemoteCompletions } from "./remote-completion.ts";
import { slashCompletion } from "./slash-completion.ts";
import type { PromptBlock } from "../agent/prompt-blocks.ts";
import { ResourceUpdates } from "./resource-updates.ts";
import type { TurnRenderer } from "./turn-renderer.ts";
import { AnswerDisplay } from "./answer-display.ts";
import type { Clock } from "../system/clock.ts";
import { ExitConfirmation } from "./exit-confirmation.ts";
import { fileCompletion } from "./file-completion.ts";
import { attachMentions } from "./prompt-attachments.ts";
import { runShellCommand, ShellContext } from "./shell-command.ts";
import { isSlashCommand } from "./slash-or-path.ts";
import { BUILTIN_COMMAND_NAMES } from "./slash-commands.ts";
import { serverEventLine } from "./server-event-lines.ts";
import { ToolChangeNews } from "./tool-change-news.ts";
import type { ResumedSession } from "../agent/session/session-recording.ts";
import { ReplSession } from "./repl-session.ts";

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

const PROMPT = "> ";
/**
 * After the user said no, the turn has stopped; the prompt asks what to do instead, as Claude Code
 * does. What is typed there goes to the model right after the declined call's result (the
 * conversation joins them), with the prompt's editing, Tab, paste and @ mentions; nothing typed,
 * nothing sent. The question is the prompt itself, so Ctrl-D at the permission question is one key
 * back to the prompt.
 */
const INSTEAD_QUESTION = "What should cat-code do instead? (your next prompt goes to the model with the decline)";

/**
 * The interactive agent. The prompt appears at once; the MCP servers connect in the background and
 * a line says when they are done. A turn can be cancelled with Ctrl-C; Ctrl-C twice at an empty
 * prompt, Ctrl-D or /exit leaves, and every server is closed on the way out.
 */
export async function runRepl(options: ReplOptions): Promise<number> {
  const input = options.input ?? process.stdin;
  const output = options.output ?? process.stdout;
  const print = (text: string) => output.write(`${text}\n`);
  const history = historyPath();
  // Tab's sources, one per kind of word: slash commands, @server: resources, @ file paths.
  const remote = new RemoteCompletions();
  const complete = createCompleter([slashCompletion({ pool: options.pool, remote }), mentionCompletion({ pool: options.pool, remote }), fileCompletion({ cwd: options.cwd })]);
  const reader = new LineReader(input, output, {
    history: loadHistory(history),
    onHistoryLine: (line) => (input.isTTY ? appendHistory(history, line) : undefined),
    onTypedAhead: (line) => (renderer ? renderer.notice(style.dim(`⎿ queued as your next prompt: ${sanitizeForTerminal(line)}`)) : undefined),
  });
  const display = new AnswerDisplay({ output, isTerminal: reader.isTerminal, markdown: options.markdown ?? options.settings?.settings.markdown });
  const style = display.style;

  let turn: AbortController | undefined;
  let renderer: TurnRenderer | undefined;
  let questionOpen = false;
  const shell = new ShellContext();
  const notices: string[] = [];
  // At a terminal, news goes above the prompt at once; otherwise it waits for the next prompt.
  const news = (line: string) => {
    if (reader.isTerminal && reader.waiting && !turn) reader.printAbove(line);
    else notices.push(line);
  };
  const ask = (question: string, signal?: AbortSignal) => reader.read(question, { signal, remember: false });
  // A question holds the terminal until answered: the turn's other output waits, typed-ahead lines go.
  const questions = new TerminalQuestions({
    begin: () => {
      questionOpen = true;
      renderer?.hold();
      const dropped = reader.dropTypedAhead();
      if (dropped > 0) print(style.dim(`(${dropped} line(s) typed before this question were dropped: answer it below)`));
    },
    end: () => {
      questionOpen = false;
      renderer?.release();
    },
  });
  const permissions = replPermissions({
    cwd: options.cwd,
    settings: options.settings,
    allowAll: options.allowAll,
    ask,
    hold: (question) => questions.ask(question),
    prompt: {
      print,
      page: reader.isTerminal ? (text) => showInPager(text, reader) : undefined,
      columns: (output as { columns?: number }).columns,
      rows: (output as { rows?: number }).rows,
      style,
    },
  });
  const form = interactiveElicitation({ ask, onCancelKey: reader.isTerminal ? cancelKeys(input) : undefined, print, style });
  // A server's question is answered within a turn, and given up with it (Ctrl-C). One that comes
  // while no prompt runs would take the line the user is typing at the prompt: it is declined.
  options.pool.elicitation = (request, signal) => {
    const running = turn?.signal;
    if (!running) return declinedElicitation(news, "it came while no prompt was running")(request);
    return questions.ask(() => form(request, signal ? AbortSignal.any([signal, running]) : running));
  };
  const saved = new ReplSession({ home: options.home, cwd: options.cwd, model: options.model, resumed: options.resumed, onError: news });
  const session = new AgentSession({
    model: options.model,
    cwd: options.cwd,
    pool: options.pool,
    maxTurns: options.maxTurns,
    onAgent: (agent) => saved.record(agent),
    thinking: options.thinking,
    maxTokens: options.maxTokens,
    autoCompact: options.settings?.settings.autoCompact,
    permissions: permissions.gate,
  });

  // Ctrl-C: cancels the turn if one runs; else clears the line; twice within 2 s on an empty line, exits.
  const exitConfirmation = new ExitConfirmation(options.clock);
  reader.onInterrupt(() => {
    if (turn) {
      turn.abort();
      return;
    }
    if (reader.currentLine) {
      exitConfirmation.reset();
      reader.discardLine();
      return;
    }
    if (exitConfirmation.press() === "exit") {
      reader.end();
      return;
    }
    reader.printAbove(style.dim("(Ctrl-C again to exit)"));
  });
  // Work a slash command waits for (a sign-in): Ctrl-C cancels it as it would a turn, and so does Esc.
  const cancellable = async <T>(work: (signal: AbortSignal) => Promise<T>): Promise<T> => {
    turn = new AbortController();
    const stopKeys = reader.isTerminal ? cancelKeys(input)(() => turn?.abort()) : () => {};
    try {
      return await work(turn.signal);
    } finally {
      stopKeys();
      turn = undefined;
    }
  };
  // Piped stdin has no raw mode, so Ctrl-C (or kill -INT) arrives as a signal.
  const releaseSignal = claimSignal("SIGINT");
  const onSigint = () => reader.interrupt();
  process.on("SIGINT", onSigint);

  // The model may come from a settings file (a project's, once trusted) or CAT_CODE_MODEL: not the terminal's to act on.
  print(`cat-code ${VERSION} · ${sanitizeForTerminal(options.model)} · /help for commands, Ctrl-D to exit`);
  for (const line of memoryWarningLines(session.memory)) print(style.dim(line));
  if (!session.hasCredentials) print(style.dim("ANTHROPIC_API_KEY is not set: /mcp and /tools work; prompts need the key."));
  for (const line of saved.resumedLines((output as { columns?: number }).columns)) print(style.dim(line));
  // A resumed conversation is loaded into the agent now, so /cost and /compact see it before a prompt.
  if (options.resumed) session.agentOrMissingKey();
  let firstPrompt = options.firstPrompt;

  display.preload();
  // After the prompt is drawn: spawning the servers' processes would otherwise delay it.
  setImmediate(() => void session.connectMcp().then((summary) => summary.line && news(summary.line)));
  // A server may change its tools in a loop: at most one line per server every few seconds.
  const toolNews = new ToolChangeNews(news, options.clock);
  options.pool.onToolsChanged = (server, tools) => {
    session.syncResourceTools();
    toolNews.changed(server, tools);
  };
  const resourceUpdates = new ResourceUpdates(news);
  options.pool.onResourceUpdated = (server, uri) => resourceUpdates.updated(server, uri);
  // A server's warning during a turn is shown at once, between the turn's lines; otherwise as news.
  const logLines = new ServerLogLines();
  options.pool.onServerLog = (entry) => {
    const line = logLines.lineFor(entry);
    if (line === undefined) return;
    if (renderer) renderer.notice(line);
    else news(line);
  };
  options.pool.onServerEvent((event) => {
    const line = serverEventLine(event);
    if (line !== undefined) (renderer ? renderer.notice(line) : news(line));
  });

  try {
    for (;;) {
      for (const notice of notices.splice(0)) print(notice);
      logLines.reset();
      const line = firstPrompt ?? (await reader.read(PROMPT, { complete }));
      if (firstPrompt !== undefined) print(`${PROMPT}${sanitizeForTerminal(firstPrompt)}`);
      firstPrompt = undefined;
      if (line === null) break;
      const text = line.trim();
      if (text === "") continue;
      exitConfirmation.reset();
      // A message of several lines (a paste) is sent verbatim: its indentation is part of it.
      let prompt: string | PromptBlock[] = line.includes("\n") ? line : text;
      if (text.startsWith("!") && text.length > 1) {
        await cancellable((signal) => runShellCommand(text.slice(1), { cwd: options.cwd, signal, print, style, context: shell }));
        continue;
      }
      if (isSlashCommand(text, BUILTIN_COMMAND_NAMES)) {
        const outcome = await runSlashCommand(text, {
          session,
          print,
          cancellable,
          ask: (question, signal, completeAnswer) => reader.read(question, { signal, remember: false, complete: completeAnswer }),
          completions: remote,
          permissions: permissions.settings,
          columns: reader.isTerminal ? (output as { columns?: number }).columns : undefined,
        });
        if (outcome === "exit") break;
        if (outcome === "continue") continue;
        prompt = outcome.send;
      }
      const agent = session.agentOrMissingKey();
      if ("missing" in agent) {
        print(`error: ${agent.missing}`);
        continue;
      }
      turn = new AbortController();
      renderer = await display.renderer();
      let declined = false;
      // Esc stops the turn as Ctrl-C does; at a question it is the question's (a form's cancel).
      const stopEsc = reader.isTerminal ? cancelKeys(input)(() => questionOpen || turn?.abort()) : () => {};
      try {
        // What the user typed may @-mention resources; a server's prompt is sent as it came (its text
        // mentioning another server's resource must not fetch it).
        const blocks = typeof prompt === "string" ? await attachMentions(prompt, { session, signal: turn.signal, print, style, updates: resourceUpdates, cwd: options.cwd, shell }) : prompt;
        if (blocks === undefined) continue;
        // Piped input comes all at once: its first prompt must not lose the race with the servers.
        if (!reader.isTerminal) await session.serversSettled(turn.signal);
        const outcome = await agent.run(session.serverNotes.prepend(blocks), { signal: turn.signal, observer: renderer });
        renderer.endLine();
        reportOutcome(outcome, print, style.dim);
        declined = outcome.status === "declined";
      } catch (error) {
        renderer.endLine();
        if (!(error instanceof AgentError)) throw error;
        print(style.red(`error: ${sanitizeForTerminal(error.message)}`));
        print(style.dim("(the prompt was not kept in the conversation: press Up to edit it and send it again)"));
      } finally {
        stopEsc();
        turn = undefined;
        renderer = undefined;
      }
      if (declined) print(INSTEAD_QUESTION);
    }
  } finally {
    process.off("SIGINT", onSigint);
    releaseSignal();
    toolNews.close();
    reader.close();
    saved.close();
    await session.close();
  }
  return 0;
}

function reportOutcome(outcome: RunOutcome, print: (text: string) => void, dim: (text: string) => string): void {
  if (outcome.status === "cancelled") print(dim("⎿ Cancelled."));
  else if (outcome.status === "max_turns") print(dim(`⎿ Stopped after ${outcome.requests} model requests (--max-turns). Say "go on" to continue.`));
}
