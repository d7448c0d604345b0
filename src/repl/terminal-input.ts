import { EventEmitter } from "node:events";
import { StringDecoder } from "node:string_decoder";
import { KeyParser, PASTE_OFF, PASTE_ON, type KeyToken } from "./terminal-keys.ts";
import { PastedText } from "./pasted-text.ts";

type RawInput = NodeJS.ReadableStream & { isTTY?: boolean; setRawMode?: (raw: boolean) => unknown };

/** What the line reader tells the router, and what it is told of the keys no line editor takes. */
export interface KeyRouting {
  /** True while a read waits for a line: keys go to the line editor (readline). */
  reading(): boolean;
  /** The line being edited. */
  editorLine(): string;
  /** True when the waiting read takes several lines (`\` + Enter, Alt+Enter): the prompt, not a y/n question. */
  multiline(): boolean;
  /** The newline key: the line about to be entered continues the message instead of ending it. */
  continueNextLine(): void;
  /** Ctrl-D on an empty line while a read waits (readline itself would end all input). */
  ctrlD(): void;
  /** Ctrl-C while no read waits (a turn runs). */
  interrupt(): void;
  /** Enter while no read waits: a line typed ahead, as typed (pastes as their labels). */
  typedAhead(line: string): void;
}

/**
 * The terminal as node:readline reads it. Readline takes a bracketed paste for keys (each line of it
 * would be sent on its own, indentation lost) and ends all input on Ctrl-D, so the raw bytes pass
 * through here first: a paste goes to the line as one label (see PastedText), the newline keys
 * continue the message on a new line, and Ctrl-D on an empty line is the reader's to decide. While
 * no read waits (a turn runs), typed text is held here instead of echoing into the turn's output;
 * Enter queues it as the next prompt; Ctrl-C and Esc still act at once (as keypress events too).
 */
export class TerminalInput extends EventEmitter {
  readonly isTTY = true;
  readonly pasted = new PastedText();
  /** Text typed while no read waits, not yet entered: it starts the next prompt's line. */
  held = "";
  private readonly parser = new KeyParser();
  private readonly decoder = new StringDecoder("utf8");
  private readonly onData = (chunk: Buffer | string) => this.take(typeof chunk === "string" ? chunk : this.decoder.write(chunk));
  private readonly onEnd = () => this.emit("end");
  private pasteMode = false;
  /** However cat-code ends (a signal, a crash), the user's shell must not be left in paste mode. */
  private readonly onExit = () => this.setPasteMode(false);

  constructor(
    private readonly source: RawInput,
    private readonly output: NodeJS.WritableStream,
    private readonly routing: KeyRouting,
  ) {
    super();
    source.on("data", this.onData);
    source.on("end", this.onEnd);
    process.once("exit", this.onExit);
    this.setPasteMode(true);
  }

  /**
   * Keypress events (readline's, and Ctrl-C or Esc while no read waits) are also emitted on the
   * terminal's own stream, where cancelKeys listens as it did before this class sat in between.
   */
  override emit(event: string | symbol, ...args: unknown[]): boolean {
    if (event === "keypress") this.source.emit("keypress", ...args);
    return super.emit(event, ...args);
  }

  setRawMode(raw: boolean): this {
    this.source.setRawMode?.(raw);
    // Bracketed paste belongs to our raw mode: a pager or a shell given the terminal must not get it.
    this.setPasteMode(raw);
    return this;
  }

  pause(): this {
    this.source.pause();
    return this;
  }

  resume(): this {
    this.source.resume();
    return this;
  }

  /** Forgets the held text; true when there was some. */
  dropHeld(): boolean {
    const had = this.held !== "";
    this.held = "";
    return had;
  }

  close(): void {
    this.setPasteMode(false);
    this.source.off("data", this.onData);
    this.source.off("end", this.onEnd);
    process.off("exit", this.onExit);
  }

  /** Gives text to the line editor as if typed (the held text at a new prompt). */
  typeIntoEditor(text: string): void {
    if (text) this.emit("data", text);
  }

  private setPasteMode(on: boolean): void {
    if (on === this.pasteMode) return;
    this.pasteMode = on;
    this.output.write(on ? PASTE_ON : PASTE_OFF);
  }

  private take(data: string): void {
    for (const token of this.parser.feed(data)) {
      if (this.routing.reading()) this.toEditor(token);
      else this.hold(token);
    }
  }

  private toEditor(token: KeyToken): void {
    switch (token.kind) {
      case "text":
        return void this.emit("data", token.text);
      case "paste":
        return void this.emit("data", this.pasted.label(token.text, token.cut));
      case "newline":
        // To the end of the line, then Enter: the reader continues the message on a new line.
        if (this.routing.multiline()) this.routing.continueNextLine();
        return void this.emit("data", "\u0005\r");
      case "key":
        if (token.sequence === "\u0004" && this.routing.editorLine() === "") return this.routing.ctrlD();
        return void this.emit("data", token.sequence);
    }
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
        const line = this.held;
        this.held = "";
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
      case "\u0003":
        this.emit("keypress", undefined, { sequence, name: "c", ctrl: true, meta: false, shift: false });
        return this.routing.interrupt();
      case "\u001b":
      case "\u001b\u001b":
        this.emit("keypress", undefined, { sequence, name: "escape", ctrl: false, meta: sequence.length > 1, shift: false });
        return;
      // Arrows, Tab, Ctrl-D and the rest edit nothing while nobody reads: dropped.
    }
  }
}
