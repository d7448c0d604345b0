/**
 * Characters that reorder text around them (Trojan Source, CVE-2021-42574): embeddings, overrides
 * and isolates (U+202A–U+202E, U+2066–U+2069) and the direction marks (U+200E, U+200F, U+061C).
 * A tool name or a command could look like something else on screen.
 */
export const BIDI_CONTROLS = "\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069";
/** C0 and C1 controls and DEL, bidi controls: whatever `Bun.stripANSI` leaves of them. */
const UNSAFE_CHARACTERS = new RegExp(`[\\u0000-\\u001f\\u007f-\\u009f${BIDI_CONTROLS}]`, "g");
const C1_CONTROLS = /[\u0080-\u009f]/g;
/** Strings that run to one of their ends: OSC (`ESC ]`) to BEL, ST, CAN or SUB; DCS, SOS, PM, APC to all but BEL. */
const STRING_SEQUENCES = [
  { introducer: /\u001b\]/g, ends: ["\u0007", "\u001b\\", "\u0018", "\u001a"] },
  { introducer: /\u001b[PX^_]/g, ends: ["\u001b\\", "\u0018", "\u001a"] },
];

/**
 * Text from a server, a project file or the model (tool names, descriptions, reasons, results) made
 * safe for a terminal: escape sequences and control characters could rewrite the screen, set the
 * title, write the clipboard, or hide what a tool really is.
 *
 * `Bun.stripANSI` removes whole sequences (CSI in every form, OSC, DCS, SOS/PM/APC), so their
 * parameters do not show up as litter; a terminated OSC or DCS hides its payload, as a terminal
 * would. Nothing else is hidden: C1 codes and unterminated strings lose only their introducer.
 * Then every control character still there goes: a lone ESC, BEL, CR, backspace, bidi controls.
 * Newlines and tabs become spaces unless `keepNewlines` is set.
 */
export function sanitizeForTerminal(text: string, options: { keepNewlines?: boolean } = {}): string {
  return Bun.stripANSI(withoutSwallowingIntroducers(text)).replace(UNSAFE_CHARACTERS, (char) =>
    char === "\n" || char === "\t" ? (options.keepNewlines ? char : " ") : "",
  );
}

/**
 * What would make `Bun.stripANSI` drop text that no sequence really holds: an 8-bit introducer (a
 * UTF-8 terminal does not act on C1 codes, and `JSON.stringify` leaves them raw, so `ls \u009d; rm -rf ~`
 * in a permission question would read `ls `), and a 7-bit string sequence that never ends. Both
 * lose their introducer, so what follows them is shown as text.
 */
function withoutSwallowingIntroducers(text: string): string {
  let result = text.replace(C1_CONTROLS, "");
  for (const { introducer, ends } of STRING_SEQUENCES) {
    // Only introducers after the last end are unterminated: each one before it stops at an end.
    const lastEnd = Math.max(...ends.map((end) => result.lastIndexOf(end)));
    const tail = result.slice(lastEnd + 1);
    if (tail.search(introducer) !== -1) result = result.slice(0, lastEnd + 1) + tail.replace(introducer, (seq) => seq.slice(1));
  }
  return result;
}

/** Hostile text as one line of a row (a task, a todo, a name): sanitized, every run of white space one space. */
export function oneLine(text: string): string {
  return sanitizeForTerminal(text).replace(/\s+/g, " ").trim();
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

/**
 * `text` (one line, already sanitized) cut to at most `columns` terminal columns, ending in `…` when
 * cut: a line rewritten in place must never wrap, or `\r` would go back to its last row only. Cut by
 * whole characters (a CJK one takes two columns), never through a surrogate pair.
 */
export function cutToColumns(text: string, columns: number): string {
  if (Bun.stringWidth(text) <= columns) return text;
  let cut = "";
  let width = 0;
  for (const char of text) {
    const charWidth = Bun.stringWidth(char);
    if (width + charWidth > columns - 1) break;
    cut += char;
    width += charWidth;
  }
  return `${cut}…`;
}
