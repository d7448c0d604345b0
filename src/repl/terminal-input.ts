import { StringDecoder } from "node:string_decoder";
import { commandFor } from "./key-bindings.ts";
import { KeyParser, PASTE_OFF, PASTE_ON, type KeyToken } from "./terminal-keys.ts";
import { PastedText } from "./pasted-text.ts";

type RawInput = NodeJS.ReadableStream & { isTTY?: boolean; setRawMode?: (raw: boolean) => unknown };

/** What the line reader tells the router, and what it is told of the keys. */
export interface KeyRouting {
  /** True while a read waits for a line: keys go to the line editor. */
  reading(): boolean;
  /** A key while a read waits (a paste as its label): the line editor's. */
  edit(token: KeyToken): void;
  /** Ctrl-C, whether or not a read waits. */
  interrupt(): void;
  /** Esc (`\u001b`, or `\u001b\u001b` for two in one read), whether or not a read waits. */
  escape(sequence: string): void;
  /** Enter while no read waits: a line typed ahead, as typed (pastes as their labels). */
  typedAhead(line: string): void;
  /** The terminal's input ended. */
  ended(): void;
  /** Shift+Tab while no read waits (a turn runs): the next permission mode. */
  cycleMode?(): void;
  /** Ctrl-T, whether or not a read waits: the todo list is shown or hidden. */
  toggleTodos?(): void;
}

/**
 * The terminal's keys, in raw mode: bytes become KeyToken (a bracketed paste is one token, the
 * newline keys are one) and go to the line editor while a read waits. While no read waits (a turn
 * runs), typed text is held here instead of echoing into the turn's output; Enter queues it as the
 * next prompt. Ctrl-C and Esc act at once either way, also as `keypress` events on the terminal's
 * own stream, where cancelKeys listens for them.
 */
export class TerminalInput {
  readonly pasted = new PastedText();
  /** Text typed while no read waits, not yet entered: it starts the next prompt's line. */
  held = "";
  private readonly parser = new KeyParser();
  private readonly decoder = new StringDecoder("utf8");
  private readonly onData = (chunk: Buffer | string) => this.take(typeof chunk === "string" ? chunk : this.decoder.write(chunk));
  private readonly onEnd = () => this.routing.ended();
  private pasteMode = false;
  /** However cat-code ends (a signal, a crash), the user's shell must not be left in paste mode. */
  private readonly onExit = () => this.setPasteMode(false);

  constructor(
    private readonly source: RawInput,
    private readonly output: NodeJS.WritableStream,
    private readonly routing: KeyRouting,
  ) {
    source.on("data", this.onData);
    source.on("end", this.onEnd);
    // A question asked before the REPL (which session to resume) may have paused the terminal's stream.
    source.resume();
    process.once("exit", this.onExit);
    this.setRawMode(true);
  }

  setRawMode(raw: boolean): void {
    this.source.setRawMode?.(raw);
    // Bracketed paste belongs to our raw mode: a pager or a shell given the terminal must not get it.
    this.setPasteMode(raw);
  }

  pause(): void {
    this.source.pause();
  }

  resume(): void {
    this.source.resume();
  }

  /** The held text, for the line of the read that starts now; held no more. */
  takeHeld(): string {
    const held = this.held;
    this.held = "";
    return held;
  }

  /** Forgets the held text; true when there was some. */
  dropHeld(): boolean {
    return this.takeHeld() !== "";
  }

  close(): void {
    this.setRawMode(false);
    this.source.off("data", this.onData);
    this.source.off("end", this.onEnd);
    // Without a listener the terminal must not keep the process alive.
    this.source.pause();
    process.off("exit", this.onExit);
  }

  private setPasteMode(on: boolean): void {
    if (on === this.pasteMode) return;
    this.pasteMode = on;
    this.output.write(on ? PASTE_ON : PASTE_OFF);
  }

  private take(data: string): void {
    for (const token of this.parser.feed(data)) {
      if (token.kind === "key" && this.cancelKey(token.sequence)) continue;
      if (token.kind === "key" && commandFor(token.sequence) === "toggle-todos") {
        this.routing.toggleTodos?.();
        continue;
      }
      if (!this.routing.reading()) this.hold(token);
      else if (token.kind === "paste") this.routing.edit({ kind: "text", text: this.pasted.label(token.text, token.cut) });
      else this.routing.edit(token);
    }
  }

  /** Ctrl-C and Esc: told as keypress events (cancelKeys), and Ctrl-C as an interrupt; true for those keys. */
  private cancelKey(sequence: string): boolean {
    switch (sequence) {
      case "\u0003":
        this.source.emit("keypress", undefined, { sequence, name: "c", ctrl: true, meta: false, shift: false });
        this.routing.interrupt();
        return true;
      case "\u001b":
      case "\u001b\u001b":
        this.source.emit("keypress", undefined, { sequence, name: "escape", ctrl: false, meta: sequence.length > 1, shift: false });
        this.routing.escape(sequence);
        return true;
    }
    return false;
  }

  private hold(token: KeyToken): void {
    switch (token.kind) {
      case "text":
        this.held += token.text;
        return;
      case "paste":
        this.held += this.pasted.label(token.text, token.cut);
        return;
      case "newline":
        // The held text goes into a one-line editor later: a line break there would send it.
        return;
      case "key":
        return this.holdKey(token.sequence);
    }
  }

  private holdKey(sequence: string): void {
    switch (sequence) {
      case "\r":
      case "\n": {
        const line = this.takeHeld();
        if (line.trim() !== "") this.routing.typedAhead(line);
        return;
      }
      case "\u007f":
      case "\b":
        this.held = [...this.held].slice(0, -1).join("");
        return;
      case "\u0015":
        this.held = "";
        return;
      case "\u001b[Z":
        // Shift+Tab acts during a turn too: the mode holds from the turn's next tool call.
        this.routing.cycleMode?.();
        return;
      // Arrows, Tab, Ctrl-D and the rest edit nothing while nobody reads: dropped.
    }
  }
}
