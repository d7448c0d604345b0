import { Terminal as HeadlessTerminal } from "@xterm/headless";
import type { Subprocess } from "bun";
import { waitFor } from "./wait-for.ts";

const COLS = 120;
const ROWS = 40;

/** Key names as tmux spells them, for tests that read like keystrokes. */
const KEYS: Record<string, string> = {
  Enter: "\r",
  "C-c": "\u0003",
  "C-d": "\u0004",
  Up: "\u001b[A",
  Down: "\u001b[B",
  Escape: "\u001b",
  Tab: "\t",
  "M-Enter": "\u001b\r",
  /** Shift+Enter as the kitty keyboard protocol reports it. */
  "S-Enter": "\u001b[13;2u",
};

/**
 * A real terminal for REPL tests with nothing installed: the program runs on a pseudo-terminal from
 * Bun (`Bun.spawn({ terminal })`), and what it writes goes through a headless xterm.js emulator, so
 * `screen()` is what a person would see (cursor moves and line redraws applied), not the raw bytes.
 * When the program ends, `[exit N]` is written on the screen, as a shell prompt would show it.
 */
export class PtyTerminal {
  private readonly emulator = new HeadlessTerminal({ cols: COLS, rows: ROWS, allowProposedApi: true, scrollback: 1000 });
  private process: Subprocess | undefined;
  private pending = Promise.resolve();
  /** The cursor's column when the program ended: 0 when it left the shell a fresh line. */
  exitColumn: number | undefined;
  /** Every byte the program wrote, decoded: what the screen cannot show (a title, a clipboard write). */
  written = "";
  private readonly decoder = new TextDecoder();

  /** Starts `command` (argv) in a 120x40 terminal. */
  start(command: string[], options: { cwd: string; env: Record<string, string> }): void {
    const child = Bun.spawn(command, {
      cwd: options.cwd,
      env: { TERM: "xterm-256color", ...options.env },
      terminal: {
        cols: COLS,
        rows: ROWS,
        data: (_terminal, data) => {
          this.written += this.decoder.decode(data, { stream: true });
          this.show(data);
        },
      },
    });
    this.process = child;
    void child.exited.then(async (code) => {
      await this.pending;
      this.exitColumn = this.emulator.buffer.active.cursorX;
      this.show(`\r\n[exit ${code}]\r\n`);
    });
  }

  send(...keys: string[]): void {
    for (const key of keys) this.process?.terminal?.write(KEYS[key] ?? key);
  }

  /** Pastes text as a terminal with bracketed paste on does: between ESC[200~ and ESC[201~. */
  paste(text: string): void {
    this.process?.terminal?.write(`\u001b[200~${text}\u001b[201~`);
  }

  /** Types text literally, then presses Enter. */
  type(text: string): void {
    this.process?.terminal?.write(text);
    this.send("Enter");
  }

  /**
   * Resizes the window, as a user dragging its corner would: what was written so far is laid out
   * again by the emulator, then the program gets SIGWINCH and what it writes next lands on the new layout.
   */
  async resize(cols: number, rows: number): Promise<void> {
    await this.pending;
    this.emulator.resize(cols, rows);
    this.process?.terminal?.resize(cols, rows);
  }

  /** The visible lines (scrolled-off ones included), each without trailing blanks. */
  screen(): string {
    const buffer = this.emulator.buffer.active;
    const lines: string[] = [];
    for (let y = 0; y < buffer.length; y++) lines.push(buffer.getLine(y)?.translateToString(true) ?? "");
    return lines
      .map((line) => line.trimEnd())
      .join("\n")
      .trimEnd();
  }

  /** Polls the screen until `predicate` holds; fails with the screen in the message. */
  async waitFor(predicate: (screen: string) => boolean, what: string, timeoutMs = 10_000): Promise<string> {
    let screen = "";
    const shows = async () => {
      await this.pending;
      screen = this.screen();
      return predicate(screen);
    };
    await waitFor(shows, () => `${what}; the screen shows:\n${screen}`, { timeoutMs, intervalMs: 50 });
    return screen;
  }

  waitForText(text: string, timeoutMs?: number): Promise<string> {
    return this.waitFor((screen) => screen.includes(text), JSON.stringify(text), timeoutMs);
  }

  kill(): void {
    this.process?.kill("SIGKILL");
    this.process?.terminal?.close();
    this.emulator.dispose();
  }

  /** The emulator parses asynchronously; `pending` lets a reader wait until it has caught up. */
  private show(data: Uint8Array | string): void {
    this.pending = new Promise((resolve) => this.emulator.write(data, resolve));
  }
}
