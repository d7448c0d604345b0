const NEWLINE = 0x0a;

/**
 * Splits a byte stream into newline-delimited lines as chunks arrive. Each byte is scanned once:
 * a partial line is kept as a list of chunks and joined only when its newline comes, so a 50 MB
 * single-line answer costs one pass and one copy, not a re-scan per chunk.
 */
export class LineSplitter {
  private partial: Uint8Array[] = [];
  private partialBytes = 0;

  /** Calls `onLine` with each complete line's bytes (without the newline). */
  push(chunk: Uint8Array, onLine: (line: Uint8Array) => void): void {
    let start = 0;
    let newline = chunk.indexOf(NEWLINE, start);
    while (newline !== -1) {
      const piece = chunk.subarray(start, newline);
      if (this.partialBytes === 0) {
        onLine(piece);
      } else {
        this.partial.push(piece);
        this.partialBytes += piece.length;
        onLine(this.takePartial());
      }
      start = newline + 1;
      newline = chunk.indexOf(NEWLINE, start);
    }
    if (start < chunk.length) {
      this.partial.push(chunk.subarray(start));
      this.partialBytes += chunk.length - start;
    }
  }

  /** Bytes held for a line whose newline has not come yet. */
  get pendingBytes(): number {
    return this.partialBytes;
  }

  /** The unterminated last line, if the stream ended without a newline. */
  finish(onLine: (line: Uint8Array) => void): void {
    if (this.partialBytes > 0) onLine(this.takePartial());
  }

  private takePartial(): Uint8Array {
    const line = new Uint8Array(this.partialBytes);
    let offset = 0;
    for (const piece of this.partial) {
      line.set(piece, offset);
      offset += piece.length;
    }
    this.partial = [];
    this.partialBytes = 0;
    return line;
  }
}

const decoder = new TextDecoder("utf-8", { fatal: false });

/** Decodes one line: UTF-8, a leading BOM and a trailing CR dropped. */
export function decodeLine(bytes: Uint8Array): string {
  const end = bytes.length > 0 && bytes[bytes.length - 1] === 0x0d ? bytes.length - 1 : bytes.length;
  return decoder.decode(bytes.subarray(0, end));
}
