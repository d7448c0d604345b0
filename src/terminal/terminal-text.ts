/**
 * Text from a server (tool names, descriptions, reasons) made safe for a terminal: escape sequences
 * and control characters could rewrite the screen or hide what a tool really is.
 */
export function sanitizeForTerminal(text: string, options: { keepNewlines?: boolean } = {}): string {
  const withoutEscapes = text.replace(/\u001b\[[0-?]*[ -/]*[@-~]|\u001b\][^\u0007\u001b]*(?:\u0007|\u001b\\)|\u001b[@-_]/g, "");
  return withoutEscapes.replace(/[\u0000-\u001f\u007f-\u009f]/g, (char) =>
    options.keepNewlines && (char === "\n" || char === "\t") ? char : char === "\n" || char === "\t" ? " " : "",
  );
}

/** The first line of a description, for one-line listings. */
export function firstLine(text: string): string {
  return text.split("\n").find((line) => line.trim() !== "")?.trim() ?? "";
}

/** Pads the first columns of each row to a common width; the last column is left as it is. */
export function alignColumns(rows: string[][], gap = "  "): string[] {
  const widths: number[] = [];
  for (const row of rows) {
    row.slice(0, -1).forEach((cell, i) => (widths[i] = Math.max(widths[i] ?? 0, cell.length)));
  }
  return rows.map((row) =>
    row
      .map((cell, i) => (i < row.length - 1 ? cell.padEnd(widths[i] ?? 0) : cell))
      .join(gap)
      .trimEnd(),
  );
}
