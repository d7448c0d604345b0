import { createInterface, type Interface } from "node:readline";
import { LineEditor } from "./line-editor.ts";
import { LineHistory } from "./line-history.ts";
import { TerminalInput } from "./terminal-input.ts";
import { DoubleEscape } from "./double-escape.ts";
import type { LineReaderOptions, ReadOptions } from "./line-reader-options.ts";

type Input = NodeJS.ReadableStream & { isTTY?: boolean };
type Output = NodeJS.WritableStream & { isTTY?: boolean };

/** The prompt shown for the second and later lines of a message (`\` + Enter, Alt+Enter). */
const CONTINUATION_PROMPT = "… ";

/** A line queued before anyone asked: what is sent, and how the terminal shows it (pastes as labels). */
interface QueuedLine {
  line: string;
  shown: string;
}

/**
 * Lines from the user, one per prompt. At a terminal, LineEditor gives line editing, Tab and up/down
 * history (the keys pass through TerminalInput first); with piped stdin, node:readline reads one
 * line per prompt. Lines typed (or piped) while nobody is asking wait in a queue. Ctrl-C arrives as
 * an interrupt, not as a signal, since the terminal is in raw mode; the REPL decides what it means.
 * At a terminal a paste is one message, `\` + Enter or Alt+Enter continues it on a new line, Ctrl-D
 * at a question answers nothing (only at an empty prompt does it end input), and what is typed while
 * nobody asks is held, then queued or put back at the next prompt, never echoed into a turn.
 */
export class LineReader {
  readonly isTerminal: boolean;
  /** Piped input's lines; undefined at a terminal. */
  private readonly rl: Interface | undefined;
  private readonly queue: QueuedLine[] = [];
  private waiter: ((line: string | null) => void) | undefined;
  /** How the waiting read takes Ctrl-D and `\` + Enter. */
  private readMode = { multiline: false, endOnCtrlD: false, remember: false, prompt: "" };
  /** The earlier lines of a message being continued with `\` + Enter. */
  private parts: string[] = [];
  /** The keys and the line being edited; undefined without a terminal. */
  private readonly keys: TerminalInput | undefined;
  private readonly editor: LineEditor | undefined;
  private readonly history: LineHistory;
  private ended = false;
  private interruptHandler: (() => void) | undefined;
  private ctrlDHandler: (() => void) | undefined;
  private doubleEscapeHandler: (() => void) | undefined;
  private readonly doubleEscape: DoubleEscape;
  /** The line being delivered stands for a key (Esc Esc): it is not kept in the history file. */
  private deliveringKey = false;

  constructor(
    input: Input,
    private readonly output: Output,
    private readonly options: LineReaderOptions = {},
  ) {
    this.isTerminal = Boolean(input.isTTY && output.isTTY);
    this.history = new LineHistory(options.history);
    this.doubleEscape = new DoubleEscape(options.clock);
    if (this.isTerminal) {
      this.editor = new LineEditor(output, this.history, {
        enter: (line, newlineKey) => this.onLine(line, newlineKey),
        ctrlDOnEmptyLine: () => this.ctrlD(),
        suspend: () => this.suspendToShell(),
        cycleMode: () => this.readMode.remember && this.options.onCycleMode?.(),
      });
      this.keys = new TerminalInput(input, output, {
        reading: () => this.waiter !== undefined,
        edit: (token) => {
          this.doubleEscape.reset();
          this.editor?.key(token);
        },
        // Ctrl-C during Ctrl-R's search leaves the search, as Esc does; otherwise it is the REPL's.
        interrupt: () => (this.waiter && this.editor?.cancelSearch()) || this.interruptHandler?.(),
        escape: (sequence) => this.escape(sequence),
        typedAhead: (line) => this.typedAhead(line),
        ended: () => this.end(),
        cycleMode: () => this.options.onCycleMode?.(),
        toggleTodos: () => this.options.onToggleTodos?.(),
      });
    } else {
      this.rl = createInterface({ input, output, terminal: false });
      this.rl.on("line", (line) => this.onLine(line, false));
      this.rl.on("close", () => this.end());
    }
  }

  /** Ctrl-C at the terminal; the REPL also routes SIGINT here. */
  onInterrupt(handler: () => void): void {
    this.interruptHandler = handler;
  }

  interrupt(): void {
    this.interruptHandler?.();
  }

  /**
   * Ctrl-D at an empty prompt (not at a question, not inside a message of several lines): the REPL
   * asks for a second press before it exits. Without a handler, input ends at once.
   */
  onCtrlDAtEmptyPrompt(handler: () => void): void {
    this.ctrlDHandler = handler;
  }

  /** Esc Esc at the prompt while nothing is typed (not at a question's answer). */
  onDoubleEscapeAtEmptyPrompt(handler: () => void): void {
    this.doubleEscapeHandler = handler;
  }

  /**
   * The next prompt's line starts with `text`, in view and editable (a rewound prompt, given back as
   * Claude Code gives it). At a terminal only, and only text of one line: a line break there would send it.
   */
  startNextLineWith(text: string): void {
    if (this.keys && !text.includes("\n")) this.keys.held = text;
  }

  /**
   * Answers the prompt's read with `line` as if it had been typed, shown after the prompt but kept
   * out of the history: for a key that stands for a command (Esc Esc is /rewind).
   */
  enterForKey(line: string): void {
    if (!this.waiter || !this.editor) return;
    this.output.write(`${line}\r\n`);
    this.deliveringKey = true;
    try {
      this.deliver(line);
    } finally {
      this.deliveringKey = false;
    }
  }

  /** True while a prompt is shown and nothing has been entered. */
  get waiting(): boolean {
    return this.waiter !== undefined;
  }

  /** The text typed so far: at the prompt (the earlier lines of a message too), or held while nobody asked. */
  get currentLine(): string {
    if (!this.waiter && this.keys) return this.keys.held;
    const line = this.editor?.line ?? "";
    return this.parts.length ? [...this.parts, line].join("\n") : line;
  }

  /**
   * Shows `prompt` and resolves the next line: null when input has ended (Ctrl-D, end of a pipe)
   * or when `signal` aborts first.
   */
  read(prompt: string, options: ReadOptions = {}): Promise<string | null> {
    const { signal, remember = true, complete, menu, keys } = options;
    if (signal?.aborted) return Promise.resolve(null);
    const queued = this.queue.shift();
    if (queued !== undefined) {
      // Nothing echoed it (a pipe, or a line typed during a turn): it is shown as what is sent.
      this.output.write(`${prompt}${queued.shown}\n`);
      // A line typed during a turn was a prompt all the same: Up and Ctrl-R find it, as the history file does.
      if (remember && this.editor) {
        this.history.add(queued.shown);
        if (queued.shown.trim() !== "") this.options.onHistoryLine?.(queued.shown);
      }
      return Promise.resolve(queued.line);
    }
    if (this.ended) return Promise.resolve(null);
    // Only a person at a terminal continues a line; a piped script's lines are each one message, as before.
    this.readMode = { multiline: remember && this.isTerminal, endOnCtrlD: remember, remember, prompt };
    this.parts = [];
    // Text typed during the turn starts this line, in view and editable, not merged out of sight.
    if (this.editor) {
      this.editor.start(prompt, this.keys?.takeHeld(), complete, menu, keys);
    } else {
      this.rl?.setPrompt(prompt);
      this.rl?.prompt();
    }
    return new Promise((resolve) => {
      const settle = (line: string | null) => {
        signal?.removeEventListener("abort", onAbort);
        if (remember && !this.deliveringKey && line !== null && line.trim() !== "") this.options.onHistoryLine?.(line);
        // The history keeps a paste's label; the model gets the text.
        resolve(line !== null && this.keys ? this.keys.pasted.expand(line) : line);
      };
      const onAbort = () => {
        if (this.waiter !== settle) return;
        this.waiter = undefined;
        if (this.isTerminal) {
          // What was typed answers nothing now: it must not come back as the start of the next line.
          this.discardLine();
          this.editor?.stop();
          this.output.write("\n");
        }
        resolve(null);
      };
      this.waiter = settle;
      signal?.addEventListener("abort", onAbort, { once: true });
    });
  }

  /**
   * Forgets the lines typed at a terminal while nobody asked, and the half-typed one: called before
   * a question whose answer consents to something, which only a line typed after it may give.
   * Piped input is a script's deliberate answers and is kept. Returns how many lines were dropped.
   */
  dropTypedAhead(): number {
    if (!this.isTerminal) return 0;
    const dropped = this.queue.splice(0).length + (this.keys?.dropHeld() ? 1 : 0);
    if (this.editor?.line) {
      this.discardLine();
      return dropped + 1;
    }
    return dropped;
  }

  /** Clears what was typed at the prompt and shows the prompt again (Ctrl-C on a non-empty line). */
  discardLine(): void {
    this.editor?.clear();
    if (this.parts.length === 0) return;
    // The earlier lines of the message go too: a fresh prompt under them.
    this.parts = [];
    this.output.write("\n");
    this.editor?.restart(this.readMode.prompt);
  }

  /** A new prompt for the line being read at the prompt (not at a question), what was typed kept. */
  setPrompt(prompt: string): void {
    if (!this.waiter || !this.readMode.remember || this.parts.length > 0) return;
    this.readMode.prompt = prompt;
    this.editor?.setPrompt(prompt);
  }

  /**
   * Prints a line above the prompt the user is looking at, keeping what they typed: for news that
   * arrives while waiting (the MCP servers are ready).
   */
  printAbove(text: string): void {
    if (!this.isTerminal || !this.waiting) {
      this.output.write(`${text}\n`);
      return;
    }
    this.editor?.printAbove(text);
  }

  /**
   * Hands the terminal to another program (the pager) until resume(): this process stops reading
   * it and leaves raw mode, so the keys typed there go to that program only.
   */
  suspend(): void {
    this.keys?.pause();
    this.keys?.setRawMode(false);
  }

  resume(): void {
    this.keys?.setRawMode(true);
    this.keys?.resume();
  }

  /** Ends input as Ctrl-D at an empty prompt does: a pending read resolves null. */
  end(): void {
    this.ended = true;
    this.freshLine();
    this.deliver(null);
  }

  close(): void {
    this.ended = true;
    this.rl?.close();
    this.editor?.close();
    this.keys?.close();
  }

  private escape(sequence: string): void {
    // At the prompt the editor has a use for it too: leaving Ctrl-R's search, closing the menu.
    if (this.waiter !== undefined) this.editor?.key({ kind: "key", sequence });
    const atEmptyPrompt = this.waiter !== undefined && this.readMode.remember && this.parts.length === 0 && this.editor?.line === "";
    if (!atEmptyPrompt) return this.doubleEscape.reset();
    if (this.doubleEscape.press(sequence)) this.doubleEscapeHandler?.();
  }

  /** Ctrl-D on an empty line: at a question, no answer (the session goes on); at the prompt, the end. */
  private ctrlD(): void {
    if (!this.readMode.endOnCtrlD) {
      const waiter = this.waiter;
      this.waiter = undefined;
      this.editor?.stop();
      this.output.write("\n");
      waiter?.(null);
    } else if (this.parts.length === 0) {
      if (this.ctrlDHandler) this.ctrlDHandler();
      else this.end();
    }
    // In the middle of a message of several lines, Ctrl-D does nothing: Enter sends, Ctrl-C drops it.
  }

  /** After the last prompt, the shell's own prompt starts on a line of its own. */
  private freshLine(): void {
    if (this.isTerminal && this.waiter) this.output.write("\n");
  }

  private typedAhead(shown: string): void {
    this.queue.push({ line: this.keys?.pasted.expand(shown) ?? shown, shown });
    this.options.onTypedAhead?.(shown);
  }

  /**
   * Ctrl-Z: the shell gets the terminal until `fg`; then the line is drawn again. As readline did,
   * only raw mode is left, the input is not paused: where SIGTSTP stops nothing (PID 1 in a
   * container, `trap '' TSTP`) the prompt must go on taking keys. Sending the stop to itself, the
   * process stops before kill returns, so the code after it runs once continued; no SIGCONT listener.
   */
  private suspendToShell(): void {
    this.keys?.setRawMode(false);
    (this.options.stopProcess ?? (() => process.kill(process.pid, "SIGTSTP")))();
    this.keys?.setRawMode(true);
    this.editor?.redraw();
  }

  /**
   * A line entered: the end of a message, or (the newline key, or ending in `\`) one line of it at
   * the prompt. Only what the prompt sends comes back with Up: not a question's answer, not the
   * earlier lines of a message.
   */
  private onLine(line: string, newlineKey: boolean): void {
    const continued = newlineKey || line.endsWith("\\");
    if (this.waiter && this.readMode.multiline && continued) {
      this.parts.push(line.endsWith("\\") ? line.slice(0, -1) : line);
      this.editor?.restart(CONTINUATION_PROMPT);
      return;
    }
    if (this.editor && this.waiter && this.readMode.remember) this.history.add(line);
    const whole = this.parts.length ? [...this.parts, line].join("\n") : line;
    this.parts = [];
    this.deliver(whole);
  }

  private deliver(line: string | null): void {
    const waiter = this.waiter;
    if (waiter) {
      this.waiter = undefined;
      this.editor?.stop();
      if (!this.isTerminal && line !== null) this.output.write(`${line}\n`);
      waiter(line);
    } else if (line !== null) {
      this.queue.push({ line, shown: line });
    }
  }
}
