import { closeSync, fstatSync, openSync, readSync } from "node:fs";

export interface LineLimits {
  /** A longer line is not read: the file is taken as ending before it. */
  maxLineBytes: number;
  /** A larger file is not read at all. */
  maxFileBytes: number;
}

export type LineEvent =
  | { kind: "line"; text: string; number: number; complete: boolean }
  | { kind: "too-long"; number: number }
  | { kind: "too-large"; bytes: number };

const CHUNK = 1024 * 1024;

/**
 * The lines of a file, read in chunks so that memory holds one line at a time, never the whole file
 * nor a line past the limit. The last line may lack its newline (a write cut short): it is given
 * with `complete: false`, and the reader decides what it is worth.
 */
export function* boundedLines(path: string, limits: LineLimits): Generator<LineEvent> {
  const fd = openSync(path, "r");
  try {
    const bytes = fstatSync(fd).size;
    if (bytes > limits.maxFileBytes) {
      yield { kind: "too-large", bytes };
      return;
    }
    const decoder = new TextDecoder();
    const buffer = Buffer.alloc(CHUNK);
    let parts: Buffer[] = [];
    let partBytes = 0;
    let number = 1;
    for (;;) {
      const read = readSync(fd, buffer, 0, CHUNK, null);
      if (read === 0) break;
      let start = 0;
      for (;;) {
        const newline = buffer.indexOf(10, start);
        const end = newline === -1 || newline >= read ? read : newline;
        if (partBytes + end - start > limits.maxLineBytes) {
          yield { kind: "too-long", number };
          return;
        }
        parts.push(Buffer.from(buffer.subarray(start, end)));
        partBytes += end - start;
        if (end === read) break;
        yield { kind: "line", text: decoder.decode(Buffer.concat(parts)), number: number++, complete: true };
        parts = [];
        partBytes = 0;
        start = end + 1;
      }
    }
    if (partBytes > 0) yield { kind: "line", text: decoder.decode(Buffer.concat(parts)), number, complete: false };
  } finally {
    closeSync(fd);
  }
}
