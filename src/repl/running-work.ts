import type { Clock } from "../system/clock.ts";
import { cancelKeys } from "./elicitation-prompt.ts";
import { ExitConfirmation, exitHint, type ExitKey } from "./exit-confirmation.ts";
import type { LineReader } from "./line-reader.ts";
import type { Style } from "./tool-call-line.ts";
import type { TurnRenderer } from "./turn-renderer.ts";

/**
 * What runs while the prompt is not shown: a model turn (with the renderer that shows it), or work
 * the user waits for (a `!` command, a slash command's sign-in). Ctrl-C aborts either.
 */
export type Running = { kind: "turn"; abort: AbortController; renderer: TurnRenderer | undefined } | { kind: "work"; abort: AbortController };

export interface RunningWorkOptions {
  reader: LineReader;
  input: NodeJS.ReadableStream;
  style: Style;
  print: (text: string) => void;
  /** Esc during a turn: cancels the running subagents first; returns how many there were. */
  cancelSubagents: () => number;
  /** For the 2 s of `(Ctrl-C again to exit)`. */
  clock?: Clock;
}

/**
 * The REPL's state between prompts and the keys that act on it: what runs now (a turn, or work the
 * user waits for), whether a question holds the terminal, and what Ctrl-C, Esc and Ctrl-D mean in
 * each case (cancel what runs; clear the line; twice at an empty prompt, exit).
 */
export class RunningWork {
  /** What runs now; undefined while the prompt waits. */
  current: Running | undefined;
  /** A question (permission, a server's form) holds the terminal: Esc is the question's, not the turn's. */
  private questionOpen = false;
  /** A turn ended since the last prompt was read: a Notification hook hears when the prompt then idles. */
  private answered = false;
  private readonly exitConfirmation: ExitConfirmation;

  constructor(private readonly options: RunningWorkOptions) {
    this.exitConfirmation = new ExitConfirmation(options.clock);
  }

  /** The running turn's renderer: notices go between its lines. */
  get turnRenderer(): TurnRenderer | undefined {
    return this.current?.kind === "turn" ? this.current.renderer : undefined;
  }

  /** A model turn starts; its renderer is set once the display has made it. */
  startTurn(): Extract<Running, { kind: "turn" }> {
    const turn: Running = { kind: "turn", abort: new AbortController(), renderer: undefined };
    this.current = turn;
    return turn;
  }

  endTurn(): void {
    this.current = undefined;
    this.answered = true;
  }

  /** True once after a turn ended: the prompt read next may tell the hooks it idles. */
  takeAnswered(): boolean {
    const answered = this.answered;
    this.answered = false;
    return answered;
  }

  /** A question holds the terminal until answered: the turn's other output waits, typed-ahead lines go. */
  questionOpens(): void {
    this.questionOpen = true;
    this.turnRenderer?.hold();
    const dropped = this.options.reader.dropTypedAhead();
    if (dropped > 0) this.options.print(this.options.style.dim(`(${dropped} line(s) typed before this question were dropped: answer it below)`));
  }

  questionCloses(): void {
    this.questionOpen = false;
    this.turnRenderer?.release();
  }

  /** Work a slash command or `!` waits for (a sign-in): Ctrl-C cancels it as it would a turn, and so does Esc. */
  async cancellable<T>(work: (signal: AbortSignal) => Promise<T>): Promise<T> {
    const abort = new AbortController();
    this.current = { kind: "work", abort };
    const stopKeys = this.cancelKeys()?.(() => this.onEscape()) ?? (() => {});
    try {
      return await work(abort.signal);
    } finally {
      stopKeys();
      this.current = undefined;
    }
  }

  /** Esc and Ctrl-C as keys, at a terminal only (piped input has neither). */
  cancelKeys(): ((listener: () => void) => () => void) | undefined {
    return this.options.reader.isTerminal ? cancelKeys(this.options.input) : undefined;
  }

  /** A line was typed: the next Ctrl-C or Ctrl-D at an empty prompt is a first press. */
  lineTyped(): void {
    this.exitConfirmation.reset();
  }

  /** Ctrl-C: cancels what runs; else clears the line; twice within 2 s on an empty line, exits. */
  onInterrupt(): void {
    const { reader } = this.options;
    if (this.current) {
      this.current.abort.abort();
      return;
    }
    if (reader.currentLine) {
      this.exitConfirmation.reset();
      reader.discardLine();
      return;
    }
    this.confirmExit("Ctrl-C");
  }

  /** Ctrl-C or Ctrl-D at an empty prompt: the second press of the same key within 2 s exits. */
  confirmExit(key: ExitKey): void {
    if (this.exitConfirmation.press(key) === "exit") {
      this.options.reader.end();
      return;
    }
    this.options.reader.printAbove(this.options.style.dim(exitHint(key)));
  }

  /**
   * Esc while something runs: stops it as Ctrl-C does, unless a question holds the terminal (then Esc
   * is its cancel). While subagents run, Esc cancels them first and the turn goes on, so the parent
   * model hears they were cancelled and can answer with what it has; Esc again stops the turn.
   */
  onEscape(): void {
    if (this.current?.kind === "turn" && this.questionOpen) return;
    if (this.current?.kind === "turn" && this.options.cancelSubagents() > 0) {
      this.turnRenderer?.notice(this.options.style.dim("⎿ Subagents cancelled (esc again stops the turn)"));
      return;
    }
    this.current?.abort.abort();
  }
}
