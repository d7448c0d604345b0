import type { Clock } from "../system/clock.ts";
import type { MenuSource } from "./completion-menu.ts";
import type { LineCompleter } from "./tab-completion.ts";

/** What the REPL gives a LineReader once: the history, and what it hears besides the lines read. */
export interface LineReaderOptions {
  /** Earlier lines, oldest first, for up/down. */
  history?: string[];
  /** Called for every line entered at a prompt that is remembered, for the history file. */
  onHistoryLine?: (line: string) => void;
  /** A line entered at a terminal while no read waited (a turn ran): queued as the next prompt. */
  onTypedAhead?: (line: string) => void;
  /**
   * Stops this process for Ctrl-Z, returning once it is continued (`fg`), or at once where the
   * stop is ignored. Sends SIGTSTP to itself unless a test stands in.
   */
  stopProcess?: () => void;
  /** Shift+Tab at the prompt or while a turn runs (not at a question's answer): the REPL cycles the permission mode. */
  onCycleMode?: () => void;
  /** Ctrl-T at a terminal, at the prompt or while a turn runs: show or hide the todo list. */
  onToggleTodos?: () => void;
  /** For the second of Esc Esc (default the system's). */
  clock?: Pick<Clock, "now">;
}

/** One read's own: how it ends early, whether it is remembered, what Tab and the menu offer. */
export interface ReadOptions {
  /** Resolves null at once when aborted. */
  signal?: AbortSignal;
  /** False for answers to questions (y/n), which should not come back with the up key. */
  remember?: boolean;
  /** What Tab completes while this read waits; without it, Tab does nothing (a y/n question). */
  complete?: LineCompleter;
  /** At a terminal, one of these keys typed on an empty line is the answer at once, without Enter. */
  keys?: readonly string[];
  /** The live menu under the line while a command or a mention is typed; none without it. */
  menu?: MenuSource;
}
