import { AgentError } from "../agent/agent-error.ts";
import type { RunOutcome } from "../agent/agent-loop.ts";
import { ServerLogLines } from "../terminal/server-log-lines.ts";
import { claimSignal } from "../terminal/shutdown.ts";
import { StatusLine } from "../terminal/status-line.ts";
import { sanitizeForTerminal } from "../terminal/terminal-text.ts";
import type { McpToolPool } from "../mcp/pool/tool-pool.ts";
import { VERSION } from "../version.ts";
import { AgentSession } from "./agent-session.ts";
import { appendHistory, historyPath, loadHistory } from "./history-file.ts";
import { LineReader } from "./line-reader.ts";
import { showInPager } from "./pager.ts";
import { interactivePermissions } from "./permission-prompt.ts";
import { cancelKeys, interactiveElicitation } from "./elicitation-prompt.ts";
import { TerminalQuestions } from "./terminal-questions.ts";
import { declinedElicitation } from "../terminal/declined-elicitation.ts";
import { runSlashCommand } from "./slash-commands.ts";
import { createCompleter } from "./completion.ts";
import { mentionCompletion } from "./mention-completion.ts";
import { RemoteCompletions } from "./remote-completion.ts";
import { slashCompletion } from "./slash-completion.ts";
import type { PromptBlock } from "../agent/prompt-blocks.ts";
import { attachResources } from "./resource-mentions.ts";
import { ResourceUpdates } from "./resource-updates.ts";
import { serverEventLine } from "./server-event-lines.ts";
import { ansiStyle, plainStyle } from "./tool-call-line.ts";
import { TurnRenderer } from "./turn-renderer.ts";

export interface ReplOptions {
  model: string;
  cwd: string;
  pool: McpToolPool;
  allowAll: boolean;
  maxTurns?: number;
  input?: NodeJS.ReadableStream & { isTTY?: boolean };
  output?: NodeJS.WritableStream & { isTTY?: boolean };
}

const PROMPT = "> ";

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
  // Tab's sources, one per kind of word; issue 14's `@file` joins them here.
  const remote = new RemoteCompletions();
  const complete = createCompleter([slashCompletion({ pool: options.pool, remote }), mentionCompletion({ pool: options.pool, remote })]);
  const reader = new LineReader(input, output, {
    history: loadHistory(history),
    onHistoryLine: (line) => (input.isTTY ? appendHistory(history, line) : undefined),
  });
  const style = reader.isTerminal ? ansiStyle : plainStyle;

  let turn: AbortController | undefined;
  let renderer: TurnRenderer | undefined;
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
      renderer?.hold();
      const dropped = reader.dropTypedAhead();
      if (dropped > 0) print(style.dim(`(${dropped} line(s) typed before this question were dropped: answer it below)`));
    },
    end: () => renderer?.release(),
  });
  const gate = options.allowAll
    ? undefined
    : interactivePermissions(ask, {
        print,
        page: reader.isTerminal ? (text) => showInPager(text, reader) : undefined,
        columns: (output as { columns?: number }).columns,
        rows: (output as { rows?: number }).rows,
        style,
      });
  const form = interactiveElicitation({ ask, onCancelKey: reader.isTerminal ? cancelKeys(input) : undefined, print, style });
  // A server's question is answered within a turn, and given up with it (Ctrl-C). One that comes
  // while no prompt runs would take the line the user is typing at the prompt: it is declined.
  options.pool.elicitation = (request, signal) => {
    const running = turn?.signal;
    if (!running) return declinedElicitation(news, "it came while no prompt was running")(request);
    return questions.ask(() => form(request, signal ? AbortSignal.any([signal, running]) : running));
  };
  const session = new AgentSession({
    model: options.model,
    cwd: options.cwd,
    pool: options.pool,
    maxTurns: options.maxTurns,
    permissions: gate ? (request) => questions.ask(() => gate(request)) : async () => "allow",
  });

  // Ctrl-C: cancels the turn if one runs; else clears the line; twice on an empty line, exits.
  let interruptsAtEmptyPrompt = 0;
  reader.onInterrupt(() => {
    if (turn) {
      turn.abort();
      return;
    }
    if (reader.currentLine) {
      interruptsAtEmptyPrompt = 0;
      reader.discardLine();
      return;
    }
    if (++interruptsAtEmptyPrompt >= 2) {
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

  print(`cat-code ${VERSION} · ${options.model} · /help for commands, Ctrl-D to exit`);
  if (!session.hasCredentials) print(style.dim("ANTHROPIC_API_KEY is not set: /mcp and /tools work; prompts need the key."));

  // After the prompt is drawn: spawning the servers' processes would otherwise delay it.
  setImmediate(() => void session.connectMcp().then((summary) => summary.line && news(summary.line)));
  options.pool.onToolsChanged = (server, tools) => {
    session.syncResourceTools();
    news(`MCP: ${sanitizeForTerminal(server)} now has ${tools.length} tool(s)`);
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
      const line = await reader.read(PROMPT, { complete });
      if (line === null) break;
      const text = line.trim();
      if (text === "") continue;
      interruptsAtEmptyPrompt = 0;
      let prompt: string | PromptBlock[] = text;
      if (text.startsWith("/")) {
        const outcome = await runSlashCommand(text, {
          session,
          print,
          cancellable,
          ask: (question, signal, completeAnswer) => reader.read(question, { signal, remember: false, complete: completeAnswer }),
          completions: remote,
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
      // Progress is rewritten in place, which only a terminal can do; a pipe gets none of it.
      renderer = new TurnRenderer(output, output, style, reader.isTerminal ? new StatusLine(output) : undefined);
      try {
        // What the user typed may @-mention resources; a server's prompt is sent as it came (its text
        // mentioning another server's resource must not fetch it).
        const blocks = typeof prompt === "string" ? await attachResources(prompt, { session, signal: turn.signal, print, style, updates: resourceUpdates }) : prompt;
        if (blocks === undefined) continue;
        // Piped input comes all at once: its first prompt must not lose the race with the servers.
        if (!reader.isTerminal) await session.serversSettled(turn.signal);
        const outcome = await agent.run(session.serverNotes.prepend(blocks), { signal: turn.signal, observer: renderer });
        renderer.endLine();
        reportOutcome(outcome, print, style.dim);
      } catch (error) {
        renderer.endLine();
        if (!(error instanceof AgentError)) throw error;
        print(style.red(`error: ${error.message}`));
      } finally {
        turn = undefined;
        renderer = undefined;
      }
    }
  } finally {
    process.off("SIGINT", onSigint);
    releaseSignal();
    reader.close();
    await session.close();
  }
  return 0;
}

function reportOutcome(outcome: RunOutcome, print: (text: string) => void, dim: (text: string) => string): void {
  if (outcome.status === "cancelled") print(dim("⎿ Cancelled."));
  else if (outcome.status === "max_turns") print(dim(`⎿ Stopped after ${outcome.requests} model requests (--max-turns). Say "go on" to continue.`));
}
