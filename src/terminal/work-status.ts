import { systemClock, type Clock, type ClockTimer } from "../system/clock.ts";
import type { StatusLine } from "./status-line.ts";

const SPINNER = ["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"];
/** Fast enough to look alive, slow enough to cost nothing (a line of 80 bytes ten times a second). */
const TICK_MS = 100;

export interface WorkStatusOptions {
  clock?: Clock;
  paint?: (text: string) => string;
}

/**
 * The line that says work is going on during a turn: `⠹ running mcp__github__search · 3/10 indexing… · 12 s · ↑ 1.2k ↓ 340`.
 * It ticks (spinner, seconds, a retry's countdown) while shown, and only then: `hide` stops the
 * timer, so nothing is drawn while text streams or a question owns the terminal, and the next
 * `show` puts it back. The activity text must be sanitized already.
 */
export class WorkStatus {
  private readonly clock: Clock;
  private readonly startedAt: number;
  private activity = "thinking";
  private detail: string | undefined;
  private retryAt: number | undefined;
  private tokensIn = 0;
  private tokensOut = 0;
  private frame = 0;
  private timer: ClockTimer | undefined;
  private visible = false;

  constructor(
    private readonly line: StatusLine,
    private readonly options: WorkStatusOptions = {},
  ) {
    this.clock = options.clock ?? systemClock;
    this.startedAt = this.clock.now();
  }

  /** What is happening now (`thinking`, `running mcp__x__y`), with a detail such as a tool's progress `3/10 indexing…`; ends any countdown. */
  set(activity: string, detail?: string): void {
    // The same words again (every delta of an answer says `writing`): the next tick draws them.
    const changed = activity !== this.activity || detail !== this.detail || this.retryAt !== undefined;
    this.activity = activity;
    this.detail = detail;
    this.retryAt = undefined;
    if (changed) this.redraw();
  }

  /** `retrying in 3 s`, counting down until the retry starts (the next `set`). */
  retryIn(delayMs: number): void {
    this.activity = "retrying";
    this.detail = undefined;
    this.retryAt = this.clock.now() + delayMs;
    this.redraw();
  }

  /** Adds a request's tokens to the turn's count. */
  addTokens(input: number, output: number): void {
    this.tokensIn += input;
    this.tokensOut += output;
    this.redraw();
  }

  /** Draws the line and keeps it ticking. */
  show(): void {
    if (!this.line.isLive) return;
    this.visible = true;
    this.redraw();
  }

  /** Erases the line and stops ticking until the next `show`. */
  hide(): void {
    this.visible = false;
    if (this.timer) this.clock.clearTimeout(this.timer);
    this.timer = undefined;
    this.line.clear();
  }

  /** The line's text now (without colour); what a test or a screen reader would read. */
  text(): string {
    const now = this.clock.now();
    const seconds = Math.floor((now - this.startedAt) / 1000);
    const what =
      this.retryAt !== undefined ? `retrying in ${Math.max(0, Math.ceil((this.retryAt - now) / 1000))} s` : this.activity;
    const parts = [`${SPINNER[this.frame % SPINNER.length]} ${what}${this.detail ? ` ${this.detail}` : ""}`, `${seconds} s`];
    if (this.tokensIn > 0 || this.tokensOut > 0) parts.push(`↑ ${compact(this.tokensIn)} ↓ ${compact(this.tokensOut)}`);
    // A leading blank: the cursor rests on the line's first column (see StatusLine), not on the spinner.
    return ` ${parts.join(" · ")}`;
  }

  private redraw(): void {
    if (!this.visible) return;
    this.line.show(this.text(), this.options.paint);
    if (this.timer) return;
    this.timer = this.clock.setTimeout(() => this.tick(), TICK_MS);
    // The spinner never keeps the process alive on its own.
    this.timer.unref();
  }

  private tick(): void {
    this.timer = undefined;
    this.frame++;
    this.redraw();
  }
}

/** 1234 → `1.2k`, 2_500_000 → `2.5M`: a status line has no room for digits that do not matter. */
function compact(n: number): string {
  if (n < 1000) return String(n);
  if (n < 1_000_000) return `${Number((n / 1000).toFixed(1))}k`;
  return `${Number((n / 1_000_000).toFixed(1))}M`;
}
