/** Terminal columns: a tab stop is 8 (as readline counted), a wide character 2. */
const TAB_SIZE = 8;

/**
 * Where a terminal's cursor is after writing `text` from the first column of a terminal `columns`
 * wide (none: no wrapping): rows down, and the column. Escape sequences take no room.
 */
export function cursorPosition(text: string, columns: number | undefined): { rows: number; cols: number } {
  const width = columns && columns > 0 ? columns : Infinity;
  let offset = 0;
  for (const char of Bun.stripANSI(text)) {
    if (char === "\t") {
      offset += TAB_SIZE - (offset % TAB_SIZE);
      continue;
    }
    const charWidth = Bun.stringWidth(char);
    // A wide character does not split across rows: it starts the next one.
    if (charWidth === 2 && (offset + 1) % width === 0) offset++;
    offset += charWidth;
  }
  if (width === Infinity) return { rows: 0, cols: offset };
  const cols = offset % width;
  return { rows: (offset - cols) / width, cols };
}
