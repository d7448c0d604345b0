import { settlesWithin } from "../../system/timers.ts";

/**
 * Reads one output stream of a child process as text, keeping at most `limit` characters of its
 * head and `tailLimit` of its tail in memory and counting what was between them, so a command that
 * prints gigabytes cannot exhaust memory and its last lines (where errors are) are still there.
 */
export class OutputCollector {
  text = "";
  /**
   * What came after the head, as chunks, oldest first: a whole chunk is dropped once the others
   * hold `tailLimit` characters without it. Kept as chunks, not one string rebuilt per chunk, so a
   * gigabyte of output makes no gigabytes of garbage on its way through.
   */
  private tailChunks: string[] = [];
  private tailLength = 0;
  private droppedChunks = 0;
  readonly done: Promise<void>;
  private readonly reader: StreamReader;

  constructor(
    stream: ReadableStream<Uint8Array>,
    private readonly limit: number,
    private readonly tailLimit = 0,
  ) {
    this.reader = stream.getReader();
    this.done = this.pump();
  }

  /**
   * Waits up to `ms` for the stream to end. A background process (`server &`) inherits the pipe and
   * keeps it open after the shell exits; waiting for it would hang the tool, so reading stops.
   */
  async settle(ms: number): Promise<boolean> {
    const ended = await settlesWithin(this.done, ms);
    if (!ended) await this.reader.cancel().catch(() => {});
    return ended;
  }

  private async pump(): Promise<void> {
    const decoder = new TextDecoder();
    try {
      for (;;) {
        const { done, value } = await this.reader.read();
        if (done) break;
        this.add(decoder.decode(value, { stream: true }));
      }
      this.add(decoder.decode());
    } catch {
      // Cancelled by settle(), or the pipe broke: what arrived so far is the output.
    }
  }

  /** The last characters, once the head is full (at most `tailLimit`). */
  get tail(): string {
    const joined = this.tailChunks.join("");
    return joined.slice(Math.max(joined.length - this.tailLimit, 0));
  }

  /** Characters between the head and the tail that were dropped. */
  get dropped(): number {
    return this.droppedChunks + Math.max(this.tailLength - this.tailLimit, 0);
  }

  /** The output as kept: head, a line saying how much of the middle was dropped, and tail. */
  get kept(): string {
    return this.dropped ? `${this.text}\n[… ${this.dropped.toLocaleString("en-US")} characters not kept …]\n${this.tail}` : this.text + this.tail;
  }

  private add(chunk: string): void {
    const room = Math.max(this.limit - this.text.length, 0);
    if (chunk.length <= room) {
      this.text += chunk;
      return;
    }
    this.text += chunk.slice(0, room);
    const rest = room > 0 ? chunk.slice(room) : chunk;
    this.tailChunks.push(rest);
    this.tailLength += rest.length;
    while (this.tailChunks.length > 0 && this.tailLength - (this.tailChunks[0] as string).length >= this.tailLimit) {
      const oldest = this.tailChunks.shift() as string;
      this.tailLength -= oldest.length;
      this.droppedChunks += oldest.length;
    }
  }
}

/** The part of a stream reader used here; Bun's and node's reader types differ in the rest. */
interface StreamReader {
  read(): Promise<{ done: boolean; value?: Uint8Array }>;
  cancel(): Promise<void>;
}
