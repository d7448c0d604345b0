import { sanitizeForTerminal } from "../terminal/terminal-text.ts";

/** A run of more blanks than this is written as `⟨N spaces⟩`: it could push a command out of sight. */
const MAX_BLANK_RUN = 16;

const NAMED: Record<string, string> = { "\u0000": "NUL", "\u0008": "BS", "\r": "CR", "\u001b": "ESC", "\u007f": "DEL" };

// C0 and C1 controls except tab, bidi overrides and isolates, zero-width and line-separator characters.
const INVISIBLE = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200b-\u200f\u2028-\u202e\u2060-\u2069\ufeff]/g;
const BLANK_RUN = new RegExp(`[ \\t]{${MAX_BLANK_RUN + 1},}`, "g");

/**
 * One line of text from the model, shown as it is for a question the user approves. Unlike
 * sanitizeForTerminal, which drops what a terminal would act on, nothing disappears here: control,
 * bidi and zero-width characters become marks like `⟨ESC⟩` or `⟨U+202E⟩`, and a long run of blanks
 * becomes `⟨300 spaces⟩`, so `echo ok` + 300 spaces + `; touch PWNED` shows the touch.
 */
export function visibleLine(line: string): string {
  const marked = line
    .replace(INVISIBLE, (char) => `⟨${NAMED[char] ?? `U+${char.codePointAt(0)!.toString(16).toUpperCase().padStart(4, "0")}`}⟩`)
    .replace(BLANK_RUN, (run) => `⟨${run.length} ${/^ +$/.test(run) ? "spaces" : /^\t+$/.test(run) ? "tabs" : "blanks"}⟩`);
  // Nothing should be left for the sanitizer to act on; it stays as the last word on what reaches the terminal.
  return sanitizeForTerminal(marked, { keepNewlines: true });
}

/**
 * Text split into lines, each made visible and cut into pieces of at most `width` terminal columns:
 * after a blank where there is one (as a person reads a wrapped command), else mid-word. Every
 * character stays, the blank too (at the end of its row): what the user approves is shown whole.
 */
export function visibleLines(text: string, width: number): string[] {
  const lines: string[] = [];
  for (const line of text.split("\n")) {
    const shown = visibleLine(line);
    if (Bun.stringWidth(shown) <= width) {
      lines.push(shown);
      continue;
    }
    // Cut long lines so that a page counts the rows a person sees, not the lines of the text; by
    // whole characters (a CJK one takes two columns), never through a surrogate pair.
    let piece: string[] = [];
    let columns = 0;
    for (const char of shown) {
      const charWidth = Bun.stringWidth(char);
      if (columns + charWidth > width && piece.length > 0) {
        // Back to just after the row's last blank, unless that would leave the row (nearly) empty.
        const blank = piece.findLastIndex((c) => c === " " || c === "\t");
        const cut = blank >= width / 3 ? blank + 1 : piece.length;
        lines.push(piece.slice(0, cut).join(""));
        piece = piece.slice(cut);
        columns = Bun.stringWidth(piece.join(""));
      }
      piece.push(char);
      columns += charWidth;
    }
    if (piece.length > 0) lines.push(piece.join(""));
  }
  return lines;
}
