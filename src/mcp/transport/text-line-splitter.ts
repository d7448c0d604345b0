const NEWLINE = 0x0a;

/**
 * Splits a byte stream into newline-delimited lines of text, decoding each chunk as it arrives.
 * A long line is held once, as decoded pieces joined when its newline comes, where splitting bytes
 * first would hold the chunks, then a joined copy of them, then the text: for a 32 MB answer that
 * is one copy fewer at the peak. Each byte is still scanned once. A leading BOM and a trailing CR
 * are dropped.
 */
export class TextLineSplitter {
  private readonly decoder = new TextDecoder("utf-8", { fatal: false });
  private pieces: string[] = [];
  private piecesLength = 0;

  /** Characters held for a line whose newline has not come yet. */
  get pendingLength(): number {
    return this.piecesLength;
  }

  /** Calls `onLine` with each complete line (without the newline). */
  push(chunk: Uint8Array, onLine: (line: string) => void): void {
    let start = 0;
    let newline = chunk.indexOf(NEWLINE);
    while (newline !== -1) {
      // Not streamed: the line ends here, so a broken sequence before the newline stays in this line.
      const last = this.decoder.decode(chunk.subarray(start, newline));
      onLine(withoutCr(this.pieces.length === 0 ? last : this.join(last)));
      start = newline + 1;
      newline = chunk.indexOf(NEWLINE, start);
    }
    // Streamed: a character split between this chunk and the next is decoded whole.
    if (start < chunk.length) {
      const piece = this.decoder.decode(chunk.subarray(start), { stream: true });
      this.pieces.push(piece);
      this.piecesLength += piece.length;
    }
  }

  /** The unterminated last line, if the stream ended without a newline. */
  finish(onLine: (line: string) => void): void {
    const last = this.decoder.decode();
    if (this.pieces.length > 0 || last !== "") onLine(withoutCr(this.join(last)));
  }

  private join(last: string): string {
    this.pieces.push(last);
    const line = this.pieces.join("");
    this.pieces = [];
    this.piecesLength = 0;
    return line;
  }
}

function withoutCr(line: string): string {
  return line.charCodeAt(line.length - 1) === 0x0d ? line.slice(0, -1) : line;
}
