import type { Clock } from "../system/clock.ts";
import { plainFormat } from "../terminal/answer-stream.ts";
import { loadMarkdown, markdownFormat } from "../terminal/markdown-renderer.ts";
import { StatusLine, type StatusBelowLine, type StatusStream } from "../terminal/status-line.ts";
import { ansiStyle, plainStyle, type Style } from "./tool-call-line.ts";
import { TurnRenderer } from "./turn-renderer.ts";

export interface AnswerDisplayOptions {
  output: StatusStream;
  /** Both ends are a terminal (the REPL's line reader says so). */
  isTerminal: boolean;
  env?: Record<string, string | undefined>;
  /** settings.json's `markdown` (default true). */
  markdown?: boolean;
  clock?: Clock;
  /** Rows shown under the status line while a turn runs (the todo list). */
  below?: () => readonly StatusBelowLine[];
}

/**
 * How the REPL shows a turn: on a terminal, colour, a status line, and the answer rendered as
 * Markdown; plain text when piped, when NO_COLOR is set (https://no-color.org: any non-empty value),
 * or with `"markdown": false` in settings. The Markdown renderer takes ~200 ms to load, so `preload`
 * starts it once the prompt is up and `renderer` waits for it only if a turn starts before it is ready.
 */
export class AnswerDisplay {
  readonly style: Style;
  private readonly markdown: boolean;

  constructor(private readonly options: AnswerDisplayOptions) {
    const noColor = Boolean((options.env ?? process.env).NO_COLOR);
    this.style = options.isTerminal && !noColor ? ansiStyle : plainStyle;
    this.markdown = options.isTerminal && !noColor && options.markdown !== false;
  }

  /** Starts loading the Markdown renderer in the background, after the current writes (the prompt). */
  preload(): void {
    if (!this.markdown) return;
    setTimeout(() => void loadMarkdown().catch(() => {}), 20).unref();
  }

  /** A renderer for one turn. */
  async renderer(): Promise<TurnRenderer> {
    const { output, isTerminal, clock } = this.options;
    const status = isTerminal ? new StatusLine(output) : undefined;
    if (status && this.options.below) status.below = this.options.below;
    const columns = () => Math.max(20, (output.columns ?? 80) - 1);
    const format = this.markdown ? await markdownFormat(columns, plainFormat(columns)) : undefined;
    return new TurnRenderer(output, output, this.style, status, { format, clock });
  }
}
