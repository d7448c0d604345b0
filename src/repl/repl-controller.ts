import { systemClock } from "../system/clock.ts";
import type { ElicitationRequest, ElicitResult } from "../mcp/index.ts";
import type { PromptBlock } from "../agent/prompt-blocks.ts";
import { PermissionModeState } from "../agent/permission-mode.ts";
import { declinedElicitation } from "../terminal/declined-elicitation.ts";
import { claimSignal } from "../terminal/shutdown.ts";
import { sanitizeForTerminal } from "../terminal/terminal-text.ts";
import { AgentRuntime } from "./agent-runtime.ts";
import { AnswerDisplay } from "./answer-display.ts";
import { interactiveElicitation } from "./elicitation-prompt.ts";
import { editInTerminal } from "./external-editor.ts";
import { appendHistory, historyPath, loadHistory } from "./history-file.ts";
import { LineReader } from "./line-reader.ts";
import { showInPager } from "./pager.ts";
import { modeNotice, modePrompt } from "./permission-mode-view.ts";
import { reviewPlan } from "./plan-review.ts";
import { PromptCompletion } from "./prompt-completion.ts";
import { runPromptTurn } from "./prompt-turn.ts";
import { replPermissions } from "./repl-permissions.ts";
import type { ReplOptions } from "./repl-options.ts";
import { ReplRecording } from "./repl-recording.ts";
import { startRepl, type ReplListening } from "./repl-start.ts";
import { ResourceUpdates } from "./resource-updates.ts";
import { RunningWork } from "./running-work.ts";
import { runShellCommand, ShellContext } from "./shell-command.ts";
import { BUILTIN_COMMAND_NAMES, runSlashCommand, type SlashOutcome } from "./slash-commands.ts";
import { isSlashCommand } from "./slash-or-path.ts";
import { StatusRows } from "./status-rows.ts";
import { TerminalQuestions } from "./terminal-questions.ts";
import type { Style } from "./tool-call-line.ts";
import { elicitationNotice, IDLE_NOTICE, IDLE_PROMPT_MS, permissionNotice, PLAN_NOTICE, type WaitingNotice } from "./waiting-notice.ts";

export type { ReplOptions } from "./repl-options.ts";

/**
 * The interactive agent, `cat-code` without -p. The prompt appears at once; the MCP servers connect
 * in the background and a line says when they are done. A turn can be cancelled with Ctrl-C; Ctrl-C twice at an empty
 * prompt, Ctrl-D or /exit leaves, and every server is closed on the way out. Its state is explicit
 * (what runs and whether a question holds the terminal, in RunningWork; the news waiting for the
 * prompt) and each kind of input has one handler: a line (prompt, `!` command, slash command; a
 * prompt's turn is prompt-turn.ts), Ctrl-C, Esc, a server's question.
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
  private readonly completion: PromptCompletion;
  private readonly shell = new ShellContext();
  /** What runs now, whether a question holds the terminal, and what Ctrl-C and Esc do about it. */
  private readonly work: RunningWork;
  private readonly statusRows: StatusRows;
  private readonly resourceUpdates: ResourceUpdates;
  private listening: ReplListening | undefined;

  /** News that came while it could not be shown above the prompt: printed before the next one. */
  private readonly notices: string[] = [];
  /** `cat-code "question"`: taken as the first prompt's line, then gone. */
  private firstPrompt: string | undefined;

  constructor(private readonly options: ReplOptions) {
    this.input = options.input ?? process.stdin;
    this.output = options.output ?? process.stdout;
    this.firstPrompt = options.firstPrompt;
    const history = historyPath();
    this.completion = new PromptCompletion(options.pool, options.cwd);
    this.reader = new LineReader(this.input, this.output, {
      history: loadHistory(history),
      onHistoryLine: (line) => (this.input.isTTY ? appendHistory(history, line) : undefined),
      onToggleTodos: () => this.statusRows.toggleTodos(this.work.current !== undefined, (text) => this.reader.printAbove(text)),
      onTypedAhead: (line) => this.work.turnRenderer?.notice(this.style.dim(`⎿ queued as your next prompt: ${sanitizeForTerminal(line)}`)),
      onCycleMode: () => this.mode.cycle(),
      clock: options.clock,
    });
    this.display = new AnswerDisplay({ output: this.output, isTerminal: this.reader.isTerminal, markdown: options.markdown ?? options.settings?.settings.markdown, below: () => this.statusRows.lines() });
    this.style = this.display.style;
    this.work = new RunningWork({ reader: this.reader, input: this.input, style: this.style, print: this.print, cancelSubagents: () => this.runtime.subagents.running.cancelAll(), clock: options.clock });
    // A question holds the terminal until answered (see RunningWork.questionOpens); the Notification hooks hear what it asks.
    this.questions = new TerminalQuestions({
      begin: (about) => {
        if (about) this.runtime.hooks.notification(about.message, about.type);
        this.work.questionOpens();
      },
      end: () => this.work.questionCloses(),
    });
    const ask = (question: string, signal?: AbortSignal, keys?: readonly string[]) => this.reader.read(question, { signal, remember: false, keys });
    this.mode = new PermissionModeState(options.permissionMode);
    // The prompt shows the mode; changed while the user types (Shift+Tab), it is drawn again with the line kept.
    this.mode.onChange((mode) => {
      this.reader.setPrompt(this.prompt);
      // During a turn the prompt is not on the screen: a line between the turn's lines says it.
      this.work.turnRenderer?.notice(modeNotice(mode, this.style));
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
        escape: this.work.cancelKeys(),
      },
    });
    this.form = interactiveElicitation({ ask, onCancelKey: this.work.cancelKeys(), print: this.print, style: this.style });
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
      planReview: (plan, signal) => this.questions.ask(() => reviewPlan(plan, { ask, print: this.print, style: this.style, signal, escape: this.work.cancelKeys() }), PLAN_NOTICE),
      hooks: options.settings?.settings.hooks,
      session: () => this.saved.session(),
    });
    this.statusRows = new StatusRows(this.runtime, this.mode, this.style);
    this.resourceUpdates = new ResourceUpdates(this.news);
    this.reader.onInterrupt(() => this.onInterrupt());
    this.reader.onCtrlDAtEmptyPrompt(() => this.work.confirmExit("Ctrl-D"));
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
        this.listening?.resetLogLines();
        const idle = this.idleNotification();
        const line = this.firstPrompt ?? (await this.reader.read(this.prompt, { complete: this.completion.complete, menu: this.completion.menuSource() }));
        idle();
        if (this.firstPrompt !== undefined) this.print(`${this.prompt}${sanitizeForTerminal(this.firstPrompt)}`);
        this.firstPrompt = undefined;
        if (line === null) break;
        if ((await this.onLine(line)) === "exit") break;
      }
    } finally {
      process.off("SIGINT", onSigint);
      releaseSignal();
      this.listening?.close();
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
    this.work.lineTyped();
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
    await this.work.cancellable((signal) => runShellCommand(command, { cwd: this.options.cwd, signal, print: this.print, style: this.style, context: this.shell }));
    return undefined;
  }

  onSlashCommand(text: string): Promise<SlashOutcome> {
    return runSlashCommand(text, {
      runtime: this.runtime,
      print: this.print,
      cancellable: (work) => this.work.cancellable(work),
      ask: (question, signal, completeAnswer) => this.reader.read(question, { signal, remember: false, complete: completeAnswer }),
      completions: this.completion.remote,
      permissions: this.permissions.settings,
      columns: this.reader.isTerminal ? this.columns : undefined,
      sessions: this.options.home === undefined ? undefined : { home: this.options.home, cwd: this.options.cwd, recording: this.saved },
      customCommands: () => this.completion.customCommands(),
      edit: this.reader.isTerminal ? (path) => editInTerminal(path, this.reader) : undefined,
      startNextLine: (text) => this.reader.startNextLineWith(text),
    });
  }

  /** A prompt (typed, or a server's prompt as blocks) sent to the model as one turn; `allow`: rules for that turn only. */
  onPrompt(prompt: string | PromptBlock[], allow?: readonly string[]): Promise<void> {
    return runPromptTurn(prompt, allow, {
      runtime: this.runtime,
      display: this.display,
      work: this.work,
      allowDuring: this.permissions.allowDuring,
      resourceUpdates: this.resourceUpdates,
      shell: this.shell,
      cwd: this.options.cwd,
      isTerminal: this.reader.isTerminal,
      print: this.print,
      style: this.style,
    });
  }

  /** Ctrl-C: cancels what runs; else clears the line; twice within 2 s on an empty line, exits. */
  onInterrupt(): void {
    this.work.onInterrupt();
  }

  /** Esc while something runs: stops it, or the running subagents first (see RunningWork.onEscape). */
  onEscape(): void {
    this.work.onEscape();
  }

  /**
   * A server's question is answered within a turn, and given up with it (Ctrl-C). One that comes
   * while no prompt runs would take the line the user is typing at the prompt: it is declined.
   */
  onElicitation(request: ElicitationRequest, signal?: AbortSignal): Promise<ElicitResult> {
    const running = this.work.current?.abort.signal;
    if (!running) return declinedElicitation(this.news, "it came while no prompt was running")(request);
    return this.questions.ask(() => this.form(request, signal ? AbortSignal.any([signal, running]) : running), elicitationNotice(request));
  }

  /** At a terminal, news goes above the prompt at once; otherwise it waits for the next prompt. */
  readonly news = (line: string): void => {
    if (this.reader.isTerminal && this.reader.waiting && !this.work.current) this.reader.printAbove(line);
    else this.notices.push(line);
  };

  private readonly print = (text: string): void => {
    this.output.write(`${text}\n`);
  };

  /** The banner and what goes with it; then the servers start connecting, and their news is heard. */
  private start(): void {
    const { options } = this;
    this.listening = startRepl({
      model: options.model,
      resumed: options.resumed,
      pool: options.pool,
      clock: options.clock,
      runtime: this.runtime,
      display: this.display,
      saved: this.saved,
      resourceUpdates: this.resourceUpdates,
      style: this.style,
      columns: this.columns,
      print: this.print,
      news: this.news,
      turnRenderer: () => this.work.turnRenderer,
      elicitation: (request, signal) => this.onElicitation(request, signal),
    });
  }

  /**
   * After an answer, a prompt left waiting IDLE_PROMPT_MS tells the Notification hooks (Claude Code's
   * `idle_prompt`), once per answer. Returns what stops the timer when a line comes.
   */
  private idleNotification(): () => void {
    if (!this.work.takeAnswered()) return () => {};
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

  /** The prompt, with the permission mode in front of it when it is not the default. */
  private get prompt(): string {
    return modePrompt(this.mode.mode, this.style);
  }

  private get columns(): number | undefined {
    return (this.output as { columns?: number }).columns;
  }
}
