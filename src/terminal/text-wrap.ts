/**
 * One line of styled text (SGR colour codes allowed) broken into rows of at most `width` terminal
 * columns (`Bun.stringWidth`: a CJK character or an emoji takes two, colour codes none): between
 * words, and inside a word only when it is longer than a row. A style open across a break is closed
 * at the row's end and opened again on the next row.
 *
 * Prefix-stable, which is what lets an answer be shown as it grows: when more text is appended,
 * every row but the last stays the same. (`Bun.wrapAnsi`'s `hard` mode alone is not: whether a long
 * word starts on the current row depends on its whole length.) Here a word wider than a row always
 * starts a row of its own and is then cut into rows.
 */
export function wrapLine(line: string, width: number): string[] {
  if (Bun.stringWidth(line) <= width) return [line];
  const columns = Math.max(1, width);
  return Bun.wrapAnsi(line, columns, { hard: false, trim: true })
    .split("\n")
    .flatMap((row) => (Bun.stringWidth(row) <= columns ? [row] : Bun.wrapAnsi(row, columns, { hard: true, trim: false }).split("\n")));
}

/** Every line of `text` wrapped by `wrapLine`, each with `indent` before it and `hanging` before its next rows. */
export function wrapIndented(text: string, width: number, indent = "", hanging = indent): string[] {
  const room = Math.max(1, width - Math.max(Bun.stringWidth(indent), Bun.stringWidth(hanging)));
  return stylesPerLine(text).flatMap((line) => wrapLine(line, room).map((row, i) => (i === 0 ? indent : hanging) + row));
}

/** A list item's marker: its text wraps under the text, not under the marker. */
const INDENT = /^[ \t]*(?:[*+-] |\d+[.)] )?/;

/**
 * Lines longer than `width` terminal columns wrapped by `wrapLine`. A wrapped line keeps its
 * indentation (a list item, a code block), and a list item's text wraps under its text.
 */
export function wrapToWidth(text: string, width: number): string {
  return text
    .split("\n")
    .map((line) => {
      if (Bun.stringWidth(line) <= width) return line;
      // Indentation styled by colour codes is rare: it comes first.
      let indent = INDENT.exec(line)?.[0] ?? "";
      if (Bun.stringWidth(indent) > width / 2) indent = "";
      return wrapIndented(line.slice(indent.length), width, indent, " ".repeat(Bun.stringWidth(indent))).join("\n");
    })
    .join("\n");
}

const SGR = /\u001b\[([0-9;]*)m/g;

/** Which SGR parameter ends which: a style's family by the code that turns it off. */
function familyOf(code: number): number | undefined {
  if (code === 1 || code === 2) return 22;
  if (code === 3) return 23;
  if (code === 4) return 24;
  if (code === 7) return 27;
  if (code === 9) return 29;
  if ((code >= 30 && code <= 38) || (code >= 90 && code <= 97)) return 39;
  if ((code >= 40 && code <= 48) || (code >= 100 && code <= 107)) return 49;
  return undefined;
}

/**
 * `text`'s lines, each with its own styles: one still open at a line's end (a comment over several
 * lines of code) is closed there and opened again on the next line, so a line stands alone (the
 * status line is drawn between lines, and a line may be shown long before the next).
 */
export function stylesPerLine(text: string): string[] {
  const lines = text.split("\n");
  if (!text.includes("\u001b")) return lines;
  let open: string[] = [];
  return lines.map((line) => {
    const prefix = open.join("");
    open = stylesOpenAfter(line, open);
    return prefix + line + (open.length > 0 ? "\u001b[0m" : "");
  });
}

/** The SGR sequences still in effect after `text`, those in effect before it being `open`. */
export function stylesOpenAfter(text: string, open: readonly string[] = []): string[] {
  let now = [...open];
  for (const match of text.matchAll(SGR)) {
    const code = match[1] === "" ? 0 : Number((match[1] ?? "").split(";")[0]);
    if (code === 0) now = [];
    else if (familyOf(code) === undefined && [22, 23, 24, 27, 29, 39, 49].includes(code)) now = now.filter((seq) => familyOf(firstParam(seq)) !== code);
    else if (familyOf(code) !== undefined) now.push(match[0]);
  }
  return now;
}

/**
 * Where in styled `text`, from `from`, the rows `rows` (made from it by `wrapLine`) end, with the
 * blanks after them: the start of the text the next row is made from. Colour codes count for nothing.
 */
export function offsetAfterRows(text: string, from: number, rows: readonly string[]): number {
  let at = from;
  const skipStyles = () => {
    for (let match = SGR_AT.exec(text.slice(at, at + 32)); match; match = SGR_AT.exec(text.slice(at, at + 32))) at += match[0].length;
  };
  const skipBlanks = () => {
    for (skipStyles(); at < text.length && /\s/.test(text[at] ?? ""); skipStyles()) at++;
  };
  for (const row of rows) {
    skipBlanks();
    for (let left = Bun.stripANSI(row).trimStart().length; left > 0 && at < text.length; left--) {
      skipStyles();
      at++;
    }
  }
  skipBlanks();
  return at;
}

const SGR_AT = /^\u001b\[[0-9;]*m/;

function firstParam(sequence: string): number {
  return Number(/\[(\d*)/.exec(sequence)?.[1] || 0);
}
