import type { EditAction } from "./line-buffer.ts";

/** What a key asks of the line editor: an edit of the line, or one of the editor's own commands. */
export type EditorCommand = EditAction | "older" | "newer" | "complete" | "enter" | "ctrl-d" | "clear-screen" | "suspend" | "cycle-mode" | "search-history" | "toggle-todos";

/**
 * The keys the prompt's editor knows, by the bytes a terminal sends for them (xterm and its
 * relatives; SS3 forms for terminals in application mode): the Emacs-style keys readline offered.
 * Ctrl-C and Esc are not here: they act whether or not a line is being edited (see TerminalInput).
 */
const BINDINGS: Record<string, EditorCommand> = {
  "\r": "enter",
  "\n": "enter",
  "\t": "complete",
  "\u0004": "ctrl-d",
  "\u000c": "clear-screen",
  "\u001a": "suspend",
  "\u0010": "older",
  "\u001b[A": "older",
  "\u001bOA": "older",
  "\u000e": "newer",
  "\u001b[B": "newer",
  "\u001bOB": "newer",
  "\u0002": "left",
  "\u001b[D": "left",
  "\u001bOD": "left",
  "\u0006": "right",
  "\u001b[C": "right",
  "\u001bOC": "right",
  "\u0001": "home",
  "\u001b[H": "home",
  "\u001bOH": "home",
  "\u001b[1~": "home",
  "\u001b[7~": "home",
  "\u0005": "end",
  "\u001b[F": "end",
  "\u001bOF": "end",
  "\u001b[4~": "end",
  "\u001b[8~": "end",
  "\u001bb": "word-left",
  "\u001b[1;5D": "word-left",
  "\u001b[1;3D": "word-left",
  "\u001bf": "word-right",
  "\u001b[1;5C": "word-right",
  "\u001b[1;3C": "word-right",
  "\u007f": "backspace",
  "\b": "backspace",
  "\u001b[3~": "delete",
  "\u0015": "kill-start",
  "\u000b": "kill-end",
  "\u0017": "kill-word-back",
  "\u001b\u007f": "kill-word-back",
  "\u001b\b": "kill-word-back",
  "\u001bd": "kill-word-forward",
  "\u001b[3;5~": "kill-word-forward",
  "\u001b[3;3~": "kill-word-forward",
  "\u0019": "yank",
  "\u001by": "yank-pop",
  "\u001f": "undo",
  "\u001e": "redo",
  // Shift+Tab: the next permission mode (default, accept edits, plan).
  "\u001b[Z": "cycle-mode",
  "\u0012": "search-history",
  // Ctrl-T shows or hides the todo list (as in Claude Code), at the prompt and while a turn runs.
  "\u0014": "toggle-todos",
  "\u001bt": "transpose",
};

/** The command for one key (KeyParser's `key` token); undefined for a key the editor ignores. */
export function commandFor(sequence: string): EditorCommand | undefined {
  return Object.hasOwn(BINDINGS, sequence) ? BINDINGS[sequence] : undefined;
}
