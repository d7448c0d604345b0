/**
 * Characters that reorder text around them (Trojan Source, CVE-2021-42574): embeddings, overrides
 * and isolates (U+202A–U+202E, U+2066–U+2069) and the direction marks (U+200E, U+200F, U+061C).
 * A tool name or a command could look like something else on screen.
 */
const BIDI_CONTROLS = "\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069";
/** C0 and C1 controls and DEL, bidi controls: whatever `Bun.stripANSI` leaves of them. */
const UNSAFE_CHARACTERS = new RegExp(`[\\u0000-\\u001f\\u007f-\\u009f${BIDI_CONTROLS}]`, "g");

/**
 * Text from a server, a project file or the model (tool names, descriptions, reasons, results) made
 * safe for a terminal: escape sequences and control characters could rewrite the screen, set the
 * title, write the clipboard, or hide what a tool really is.
 *
 * `Bun.stripANSI` removes whole sequences (CSI in every form, OSC, DCS, SOS/PM/APC, 7- and 8-bit
 * introducers), so their parameters do not show up as litter; an unterminated string sequence
 * (`ESC ]` with no BEL or ST) takes the rest of the text with it, as a terminal would. Then every
 * control character still there goes: a lone ESC, BEL, CR, backspace, C1 codes, bidi controls.
 * Newlines and tabs become spaces unless `keepNewlines` is set.
 */
export function sanitizeForTerminal(text: string, options: { keepNewlines?: boolean } = {}): string {
  return Bun.stripANSI(text).replace(UNSAFE_CHARACTERS, (char) =>
    char === "\n" || char === "\t" ? (options.keepNewlines ? char : " ") : "",
  );
}

/** The first line of a description, for one-line listings. */
export function firstLine(text: string): string {
  return text.split("\n").find((line) => line.trim() !== "")?.trim() ?? "";
}

/**
 * Pads the first columns of each row to a common width; the last column is left as it is. Widths
 * are terminal columns (`Bun.stringWidth`): a CJK character or an emoji takes two, a combining mark none.
 */
export function alignColumns(rows: string[][], gap = "  "): string[] {
  const widths: number[] = [];
  for (const row of rows) {
    row.slice(0, -1).forEach((cell, i) => (widths[i] = Math.max(widths[i] ?? 0, Bun.stringWidth(cell))));
  }
  return rows.map((row) =>
    row
      .map((cell, i) => (i < row.length - 1 ? cell + " ".repeat(Math.max(0, (widths[i] ?? 0) - Bun.stringWidth(cell))) : cell))
      .join(gap)
      .trimEnd(),
  );
}
