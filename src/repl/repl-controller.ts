import { systemClock, type Clock } from "../system/clock.ts";
import type { LoadedSettings } from "../settings/settings.ts";
import type { ElicitationRequest, ElicitResult, ServerPool } from "../mcp/index.ts";
import type { ResumedConversation } from "../agent/conversation-log/conversation-recording.ts";
import { AgentError } from "../agent/agent-error.ts";
import type { RunOutcome } from "../agent/agent-loop.ts";
import { hookStopText } from "../agent/hooks/agent-hooks.ts";
import type { PermissionRules } from "../agent/permission-rules.ts";
import type { PromptBlock } from "../agent/prompt-blocks.ts";
import { PermissionModeState, type PermissionMode } from "../agent/permission-mode.ts";
import { declinedElicitation } from "../terminal/declined-elicitation.ts";
import { claimSignal } from "../terminal/shutdown.ts";
import { sanitizeForTerminal } from "../terminal/terminal-text.ts";
import { VERSION } from "../version.ts";
import { AgentRuntime } from "./agent-runtime.ts";
import { AnswerDisplay } from "./answer-display.ts";
import { createCompleter, type Completions } from "./completion.ts";
import { cancelKeys, interactiveElicitation } from "./elicitation-prompt.ts";
import { ExitConfirmation, exitHint, type ExitKey } from "./exit-confirmation.ts";
import { editInTerminal } from "./external-editor.ts";
import { loadCustomCommands, type CustomCommand } from "./custom-commands.ts";
import { fileCompletion } from "./file-completion.ts";
import { appendHistory, historyPath, loadHistory } from "./history-file.ts";
import { LineReader } from "./line-reader.ts";
import { memoryWarningLines } from "./memory-command.ts";
import { mentionCompletion } from "./mention-completion.ts";
import { showInPager } from "./pager.ts";
import { listenToPool } from "./pool-listeners.ts";
import { attachMentions } from "./prompt-attachments.ts";
import { RemoteCompletions } from "./remote-completion.ts";
import { replPermissions } from "./repl-permissions.ts";
import { wrapIndented } from "../terminal/text-wrap.ts";
import { modeNotice, modePrompt, modeStatusLines } from "./permission-mode-view.ts";
import { reviewPlan } from "./plan-review.ts";
import { ReplRecording } from "./repl-recording.ts";
import { ResourceUpdates } from "./resource-updates.ts";
import { runShellCommand, ShellContext } from "./shell-command.ts";
import { BUILTIN_COMMAND_NAMES, builtinCommandHelp, runSlashCommand, type SlashOutcome } from "./slash-commands.ts";
import type { MenuSource } from "./completion-menu.ts";
import { replMenuSource } from "./menu-source.ts";
import { slashCompletion } from "./slash-completion.ts";
import { isSlashCommand } from "./slash-or-path.ts";
import { TerminalQuestions } from "./terminal-questions.ts";
import { ToolChangeNews } from "./tool-change-news.ts";
import type { Style } from "./tool-call-line.ts";
import type { TurnRenderer } from "./turn-renderer.ts";
import { TodoPanel } from "./todo-panel.ts";
import { subagentRows } from "./subagent-panel.ts";
import { elicitationNotice, IDLE_NOTICE, IDLE_PROMPT_MS, permissionNotice, PLAN_NOTICE, type WaitingNotice } from "./waiting-notice.ts";

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

/**
 * After the user said no, the turn has stopped; the prompt asks what to do instead, as Claude Code
 * does. What is typed there goes to the model right after the declined call's result (the
 * conversation joins them), with the prompt's editing, Tab, paste and @ mentions; nothing typed,
 * nothing sent. The question is the prompt itself, so Ctrl-D at the permission question is one key
 * back to the prompt.
 */
const INSTEAD_QUESTION = "What should cat-code do instead? (your next prompt goes to the model with the decline)";

/**
 * What runs while the prompt is not shown: a model turn (with the renderer that shows it), or work
 * the user waits for (a `!` command, a slash command's sign-in). Ctrl-C aborts either.
 */
type Running = { kind: "turn"; abort: AbortController; renderer: TurnRenderer | undefined } | { kind: "work"; abort: AbortController };

/**
 * The interactive agent, `cat-code` without -p. The prompt appears at once; the MCP servers connect
 * in the background and a line says when they are done. A turn can be cancelled with Ctrl-C; Ctrl-C twice at an empty
 * prompt, Ctrl-D or /exit leaves, and every server is closed on the way out. Its state is explicit
 * (what runs, whether a question holds the terminal, the news waiting for the prompt) and each kind
 * of input has one handler: a line (prompt, `!` command, slash command), Ctrl-C, Esc, a server's question.
 */
export class ReplController {
  readonly reader: LineReader;
  readonly runtime: AgentRuntime;
  private readonly input: NodeJS.ReadableStream & { isTTY?: boolean };
  private readonly output: NodeJS.WritableStream & { isTTY?: boolean };
  private readonly display: AnswerDisplay;
  private readonly style: Style;
  private readonly saved: ReplRecording;
  private readonly permissions: ReturnType<typeof replPermissions>;
  /** The session's permission mode: the gate reads it, the prompt shows it, Shift+Tab and an accepted plan change it. */
  readonly mode: PermissionModeState;
  private readonly questions: TerminalQuestions<WaitingNotice>;
  private readonly form: ReturnType<typeof interactiveElicitation>;
  private readonly remote = new RemoteCompletions();
  private readonly complete: (line: string) => Promise<Completions>;
  private readonly shell = new ShellContext();
  private readonly exitConfirmation: ExitConfirmation;
  private readonly todoPanel: TodoPanel;
  private readonly resourceUpdates: ResourceUpdates;
  private toolNews: ToolChangeNews | undefined;
  private resetLogLines = () => {};
  private detachFromPool = () => {};

  /** What runs now; undefined while the prompt waits. */
  private running: Running | undefined;
  /** A question (permission, a server's form) holds the terminal: Esc is the question's, not the turn's. */
  private questionOpen = false;
  /** News that came while it could not be shown above the prompt: printed before the next one. */
  private readonly notices: string[] = [];
  /** The custom commands as read for the current prompt (see customCommands). */
  private customCache: CustomCommand[] | undefined;
  /** `cat-code "question"`: taken as the first prompt's line, then gone. */
  private firstPrompt: string | undefined;
  /** A turn ended since the last prompt was read: a Notification hook hears when the prompt then idles. */
  private answered = false;

  constructor(private readonly options: ReplOptions) {
    this.input = options.input ?? process.stdin;
    this.output = options.output ?? process.stdout;
    this.firstPrompt = options.firstPrompt;
    const history = historyPath();
    // Tab's sources, one per kind of word: slash commands, @server: resources, @ file paths.
    this.complete = createCompleter([slashCompletion({ pool: options.pool, remote: this.remote, customNames: () => this.customCommands().map((command) => command.name) }), mentionCompletion({ pool: options.pool, remote: this.remote }), fileCompletion({ cwd: options.cwd })]);
    this.reader = new LineReader(this.input, this.output, {
      history: loadHistory(history),
      onHistoryLine: (line) => (this.input.isTTY ? appendHistory(history, line) : undefined),
      onToggleTodos: () => this.toggleTodos(),
      onTypedAhead: (line) => this.turnRenderer?.notice(this.style.dim(`⎿ queued as your next prompt: ${sanitizeForTerminal(line)}`)),
      onCycleMode: () => this.mode.cycle(),
      clock: options.clock,
    });
    this.display = new AnswerDisplay({ output: this.output, isTerminal: this.reader.isTerminal, markdown: options.markdown ?? options.settings?.settings.markdown, below: () => [...subagentRows(this.runtime.subagents.running.list(), this.style), ...this.todoPanel.lines(), ...modeStatusLines(this.mode.mode, this.style)] });
    this.style = this.display.style;
    // A question holds the terminal until answered: the turn's other output waits, typed-ahead lines go.
    this.questions = new TerminalQuestions({
      begin: (about) => {
        if (about) this.runtime.hooks.notification(about.message, about.type);
        this.questionOpen = true;
        this.turnRenderer?.hold();
        const dropped = this.reader.dropTypedAhead();
        if (dropped > 0) this.print(this.style.dim(`(${dropped} line(s) typed before this question were dropped: answer it below)`));
      },
      end: () => {
        this.questionOpen = false;
        this.turnRenderer?.release();
      },
    });
    const ask = (question: string, signal?: AbortSignal, keys?: readonly string[]) => this.reader.read(question, { signal, remember: false, keys });
    this.mode = new PermissionModeState(options.permissionMode);
    // The prompt shows the mode; changed while the user types (Shift+Tab), it is drawn again with the line kept.
    this.mode.onChange((mode) => {
      this.reader.setPrompt(this.prompt);
      // During a turn the prompt is not on the screen: a line between the turn's lines says it.
      this.turnRenderer?.notice(modeNotice(mode, this.style));
    });
    this.permissions = replPermissions({
      cwd: options.cwd,
      settings: options.settings,
      rules: options.rules,
      allowAll: options.allowAll,
      mode: this.mode,
      ask,
      hold: (question, request) => this.questions.ask(question, permissionNotice(request)),
      prompt: {
        print: this.print,
        page: this.reader.isTerminal ? (text) => showInPager(text, this.reader) : undefined,
        columns: () => this.columns,
        rows: (this.output as { rows?: number }).rows,
        style: this.style,
        escape: this.cancelKeys(),
      },
    });
    this.form = interactiveElicitation({ ask, onCancelKey: this.cancelKeys(), print: this.print, style: this.style });
    this.saved = new ReplRecording({ home: options.home, cwd: options.cwd, model: options.model, currentModel: () => this.runtime.model, resumed: options.resumed, onError: this.news });
    this.runtime = new AgentRuntime({
      model: options.model,
      cwd: options.cwd,
      pool: options.pool,
      maxTurns: options.maxTurns,
      onAgent: (agent) => this.saved.record(agent),
      thinking: options.thinking,
      maxTokens: options.maxTokens,
      autoCompact: options.settings?.settings.autoCompact,
      toolSearch: options.settings?.settings.toolSearch,
      permissions: this.permissions.gate,
      maxMcpOutputTokens: options.maxMcpOutputTokens ?? options.settings?.settings.maxMcpOutputTokens,
      outputsFolder: () => this.saved.outputsFolder(),
      sessionFolder: () => this.saved.sessionFolder(),
      promptsBeforeServers: true,
      mode: this.mode,
      planReview: (plan, signal) => this.questions.ask(() => reviewPlan(plan, { ask, print: this.print, style: this.style, signal, escape: this.cancelKeys() }), PLAN_NOTICE),
      hooks: options.settings?.settings.hooks,
      session: () => this.saved.session(),
    });
    this.todoPanel = new TodoPanel(this.runtime.todos, this.style);
    this.exitConfirmation = new ExitConfirmation(options.clock);
    this.resourceUpdates = new ResourceUpdates(this.news);
    this.reader.onInterrupt(() => this.onInterrupt());
    this.reader.onCtrlDAtEmptyPrompt(() => this.confirmExit("Ctrl-D"));
    // Esc Esc at an empty prompt opens /rewind, as in Claude Code.
    this.reader.onDoubleEscapeAtEmptyPrompt(() => this.reader.enterForKey("/rewind"));
  }

  /**
   * Runs until /exit, Ctrl-D, a confirmed Ctrl-C or the end of piped input; closes everything on the way
   * out. Resolves the exit code once the user has left and every server is closed.
   */
  async run(): Promise<number> {
    // Piped stdin has no raw mode, so Ctrl-C (or kill -INT) arrives as a signal.
    const releaseSignal = claimSignal("SIGINT");
    const onSigint = () => this.reader.interrupt();
    process.on("SIGINT", onSigint);
    try {
      this.start();
      for (;;) {
        for (const notice of this.notices.splice(0)) this.print(notice);
        this.resetLogLines();
        const idle = this.idleNotification();
        const line = this.firstPrompt ?? (await this.reader.read(this.prompt, { complete: this.complete, menu: this.menuSource() }));
        idle();
        if (this.firstPrompt !== undefined) this.print(`${this.prompt}${sanitizeForTerminal(this.firstPrompt)}`);
        this.firstPrompt = undefined;
        if (line === null) break;
        if ((await this.onLine(line)) === "exit") break;
      }
    } finally {
      process.off("SIGINT", onSigint);
      releaseSignal();
      this.toolNews?.close();
      this.detachFromPool();
      this.reader.close();
      this.saved.close();
      this.sayHowToResume();
      await this.runtime.close();
    }
    return 0;
  }

  /** One line from the prompt: a `!` command, a slash command, or a prompt for the model. */
  async onLine(line: string): Promise<"exit" | undefined> {
    const text = line.trim();
    if (text === "") return;
    this.exitConfirmation.reset();
    if (text.startsWith("!") && text.length > 1) return this.onShellCommand(text.slice(1));
    // A message of several lines (a paste) is sent verbatim: its indentation is part of it.
    let prompt: string | PromptBlock[] = line.includes("\n") ? line : text;
    let allow: readonly string[] | undefined;
    if (isSlashCommand(text, BUILTIN_COMMAND_NAMES)) {
      const outcome = await this.onSlashCommand(text);
      if (outcome === "exit") return "exit";
      if (outcome === "continue") return;
      ({ send: prompt, allow } = outcome);
    }
    await this.onPrompt(prompt, allow);
  }

  /** `!command`: run in a shell, its output kept for the model's next prompt. */
  async onShellCommand(command: string): Promise<undefined> {
    await this.cancellable((signal) => runShellCommand(command, { cwd: this.options.cwd, signal, print: this.print, style: this.style, context: this.shell }));
    return undefined;
  }

  onSlashCommand(text: string): Promise<SlashOutcome> {
    return runSlashCommand(text, {
      runtime: this.runtime,
      print: this.print,
      cancellable: (work) => this.cancellable(work),
      ask: (question, signal, completeAnswer) => this.reader.read(question, { signal, remember: false, complete: completeAnswer }),
      completions: this.remote,
      permissions: this.permissions.settings,
      columns: this.reader.isTerminal ? this.columns : undefined,
      sessions: this.options.home === undefined ? undefined : { home: this.options.home, cwd: this.options.cwd, recording: this.saved },
      customCommands: () => this.customCommands(),
      edit: this.reader.isTerminal ? (path) => editInTerminal(path, this.reader) : undefined,
      startNextLine: (text) => this.reader.startNextLineWith(text),
    });
  }

  /**
   * `.cat-code/commands` and `.claude/commands`, the project's and the user's: read again for each
   * prompt (so a new file counts), once for all the keys typed at it (the live menu asks per key).
   */
  private customCommands(): CustomCommand[] {
    return (this.customCache ??= loadCustomCommands(this.options.cwd, BUILTIN_COMMAND_NAMES));
  }

  /** The live menu for the prompt that starts now. */
  private menuSource(): MenuSource {
    this.customCache = undefined;
    const describe = () => {
      const about = builtinCommandHelp();
      for (const command of this.customCommands()) about.set(`/${command.name}`, command.description);
      return about;
    };
    return replMenuSource({ complete: this.complete, describe, pool: this.options.pool, remote: this.remote });
  }

  /** A prompt (typed, or a server's prompt as blocks) sent to the model as one turn; `allow`: rules for that turn only. */
  async onPrompt(prompt: string | PromptBlock[], allow?: readonly string[]): Promise<void> {
    const agent = this.runtime.agentOrMissingKey();
    if ("missing" in agent) {
      this.print(`error: ${agent.missing}`);
      return;
    }
    const abort = new AbortController();
    const turn: Running = { kind: "turn", abort, renderer: undefined };
    this.running = turn;
    let declined = false;
    let stopEsc = () => {};
    const stopAllowing = allow?.length ? this.permissions.allowDuring(allow) : () => {};
    try {
      const renderer = (turn.renderer = await this.display.renderer());
      // Esc stops the turn as Ctrl-C does; at a question it is the question's (a form's cancel).
      stopEsc = this.cancelKeys()?.(() => this.onEscape()) ?? stopEsc;
      try {
        // What the user typed may @-mention resources; a server's prompt is sent as it came (its text
        // mentioning another server's resource must not fetch it).
        const blocks = typeof prompt === "string" ? await attachMentions(prompt, { runtime: this.runtime, signal: abort.signal, print: this.print, style: this.style, updates: this.resourceUpdates, cwd: this.options.cwd, shell: this.shell }) : prompt;
        if (blocks === undefined) return;
        // Piped input comes all at once: its first prompt must not lose the race with the servers.
        if (!this.reader.isTerminal) await this.runtime.serversSettled(abort.signal);
        this.runtime.beginCheckpoint(prompt);
        const outcome = await agent.run(this.runtime.notedPrompt(blocks), { signal: abort.signal, observer: renderer });
        // No request: a hook blocked it, or it was given up before it was sent.
        if (outcome.requests === 0) this.runtime.abandonCheckpoint();
        renderer.endLine();
        this.reportOutcome(outcome);
        declined = outcome.status === "declined";
      } catch (error) {
        renderer.endLine();
        if (!(error instanceof AgentError)) throw error;
        this.runtime.abandonCheckpoint();
        this.print(this.style.red(`error: ${sanitizeForTerminal(error.message)}`));
        this.print(this.style.dim("(the prompt was not kept in the conversation: press Up to edit it and send it again)"));
      }
    } finally {
      stopEsc();
      stopAllowing();
      this.running = undefined;
      this.answered = true;
    }
    if (declined) this.print(INSTEAD_QUESTION);
  }

  /** Ctrl-C: cancels what runs; else clears the line; twice within 2 s on an empty line, exits. */
  onInterrupt(): void {
    if (this.running) {
      this.running.abort.abort();
      return;
    }
    if (this.reader.currentLine) {
      this.exitConfirmation.reset();
      this.reader.discardLine();
      return;
    }
    this.confirmExit("Ctrl-C");
  }

  /** Ctrl-C or Ctrl-D at an empty prompt: the second press of the same key within 2 s exits. */
  confirmExit(key: ExitKey): void {
    if (this.exitConfirmation.press(key) === "exit") {
      this.reader.end();
      return;
    }
    this.reader.printAbove(this.style.dim(exitHint(key)));
  }

  /**
   * Esc while something runs: stops it as Ctrl-C does, unless a question holds the terminal (then Esc
   * is its cancel). While subagents run, Esc cancels them first and the turn goes on, so the parent
   * model hears they were cancelled and can answer with what it has; Esc again stops the turn.
   */
  onEscape(): void {
    if (this.running?.kind === "turn" && this.questionOpen) return;
    if (this.running?.kind === "turn" && this.runtime.subagents.running.cancelAll() > 0) {
      this.turnRenderer?.notice(this.style.dim("⎿ Subagents cancelled (esc again stops the turn)"));
      return;
    }
    this.running?.abort.abort();
  }

  /**
   * A server's question is answered within a turn, and given up with it (Ctrl-C). One that comes
   * while no prompt runs would take the line the user is typing at the prompt: it is declined.
   */
  onElicitation(request: ElicitationRequest, signal?: AbortSignal): Promise<ElicitResult> {
    const running = this.running?.abort.signal;
    if (!running) return declinedElicitation(this.news, "it came while no prompt was running")(request);
    return this.questions.ask(() => this.form(request, signal ? AbortSignal.any([signal, running]) : running), elicitationNotice(request));
  }

  /** At a terminal, news goes above the prompt at once; otherwise it waits for the next prompt. */
  readonly news = (line: string): void => {
    if (this.reader.isTerminal && this.reader.waiting && !this.running) this.reader.printAbove(line);
    else this.notices.push(line);
  };

  private readonly print = (text: string): void => {
    this.output.write(`${text}\n`);
  };

  /** The banner and what goes with it; then the servers start connecting, and their news is heard. */
  private start(): void {
    const { options, runtime, style } = this;
    // The model may come from a settings file (a project's, once trusted) or CAT_CODE_MODEL: not the terminal's to act on.
    // Wrapped between words at the terminal's width (a narrow window must not cut `Ctrl-D` in two).
    const banner = `cat-code ${VERSION} · ${sanitizeForTerminal(options.model)} · /help for commands, Ctrl-D twice to exit`;
    for (const line of this.columns ? wrapIndented(banner, Math.max(20, this.columns - 1)) : [banner]) this.print(line);
    for (const line of memoryWarningLines(runtime.memory)) this.print(style.dim(line));
    for (const line of runtime.agentTypeWarnings) this.print(style.dim(`warning: ${sanitizeForTerminal(line)}`));
    if (!runtime.hasCredentials) this.print(style.dim("ANTHROPIC_API_KEY is not set: /mcp and /tools work; prompts need the key."));
    for (const line of this.saved.resumedLines(this.columns)) this.print(style.dim(line));
    // A resumed conversation is loaded into the agent now, so /cost and /compact see it before a prompt.
    if (options.resumed) runtime.agentOrMissingKey();

    // A hook's line (it failed, timed out, or has a message) between a turn's lines, or as news.
    runtime.hooks.onNotice((line) => {
      const shown = style.dim(`⎿ ${sanitizeForTerminal(line)}`);
      if (this.turnRenderer) this.turnRenderer.notice(shown);
      else this.news(shown);
    });
    void runtime.hooks.sessionStart(options.resumed ? "resume" : "startup");

    this.display.preload();
    // After the prompt is drawn: spawning the servers' processes would otherwise delay it.
    setImmediate(() => void runtime.connectMcp().then((summary) => summary.line && this.news(summary.line)));
    // A server may change its tools in a loop: at most one line per server every few seconds.
    const toolNews = (this.toolNews = new ToolChangeNews(this.news, options.clock));
    // A server's warning (or its coming and going) during a turn is shown at once, between the turn's lines; otherwise as news.
    const serverLine = (line: string) => (this.turnRenderer ? this.turnRenderer.notice(line) : this.news(line));
    const listening = listenToPool(options.pool, {
      elicitation: (request, signal) => this.onElicitation(request, signal),
      toolsChanged: (server, tools) => {
        runtime.syncResourceTools();
        toolNews.changed(server, tools);
      },
      resourceUpdated: (server, uri) => this.resourceUpdates.updated(server, uri),
      serverLog: serverLine,
      serverEvent: serverLine,
    });
    this.resetLogLines = listening.resetLogLines;
    this.detachFromPool = listening.detach;
  }

  /**
   * After an answer, a prompt left waiting IDLE_PROMPT_MS tells the Notification hooks (Claude Code's
   * `idle_prompt`), once per answer. Returns what stops the timer when a line comes.
   */
  private idleNotification(): () => void {
    if (!this.answered) return () => {};
    this.answered = false;
    const clock = this.options.clock ?? systemClock;
    const timer = clock.setTimeout(() => this.runtime.hooks.notification(IDLE_NOTICE.message, IDLE_NOTICE.type), IDLE_PROMPT_MS);
    timer.unref();
    return () => clock.clearTimeout(timer);
  }

  /** Leaving a terminal session that has a conversation: the line that brings it back, as Claude Code prints it. */
  private sayHowToResume(): void {
    const id = this.saved.id;
    if (this.reader.isTerminal && id && this.saved.hasConversation) this.print(this.style.dim(`Resume this session with: cat-code --resume ${id}`));
  }

  /** Work a slash command or `!` waits for (a sign-in): Ctrl-C cancels it as it would a turn, and so does Esc. */
  private async cancellable<T>(work: (signal: AbortSignal) => Promise<T>): Promise<T> {
    const abort = new AbortController();
    this.running = { kind: "work", abort };
    const stopKeys = this.cancelKeys()?.(() => this.onEscape()) ?? (() => {});
    try {
      return await work(abort.signal);
    } finally {
      stopKeys();
      this.running = undefined;
    }
  }

  /** Esc and Ctrl-C as keys, at a terminal only (piped input has neither). */
  private cancelKeys(): ((listener: () => void) => () => void) | undefined {
    return this.reader.isTerminal ? cancelKeys(this.input) : undefined;
  }

  /** The prompt, with the permission mode in front of it when it is not the default. */
  private get prompt(): string {
    return modePrompt(this.mode.mode, this.style);
  }

  /** Ctrl-T: during a turn the list appears or goes at the status line's next tick; at the prompt it is printed, or a line says it is hidden. */
  private toggleTodos(): void {
    const shown = this.todoPanel.toggle();
    if (this.running) return;
    const rows = this.todoPanel.lines();
    if (!shown) this.reader.printAbove(this.style.dim("Todo list hidden (ctrl+t shows it)"));
    else if (rows.length === 0) this.reader.printAbove(this.style.dim("No todo list yet (the agent writes one for multi-step work)"));
    else this.reader.printAbove(rows.map((row) => (row.paint ?? ((t: string) => t))(row.text)).join("\n"));
  }

  private get turnRenderer(): TurnRenderer | undefined {
    return this.running?.kind === "turn" ? this.running.renderer : undefined;
  }

  private get columns(): number | undefined {
    return (this.output as { columns?: number }).columns;
  }

  private reportOutcome(outcome: RunOutcome): void {
    if (outcome.status === "cancelled") this.print(this.style.dim("⎿ Cancelled."));
    else if (outcome.status === "blocked") this.print(this.style.red(`⎿ Prompt blocked by a UserPromptSubmit hook: ${sanitizeForTerminal(outcome.reason)}`));
    else if (outcome.status === "stopped") this.print(this.style.red(`⎿ ${hookStopText(outcome)}`));
    else if (outcome.status === "max_turns") this.print(this.style.dim(`⎿ Stopped after ${outcome.requests} model requests (--max-turns). Say "go on" to continue.`));
  }
}
