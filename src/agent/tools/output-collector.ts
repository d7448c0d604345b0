import { settlesWithin } from "../../system/timers.ts";

/**
 * Reads one output stream of a child process as text, keeping at most `limit` characters of its
 * head and `tailLimit` of its tail in memory and counting what was between them, so a command that
 * prints gigabytes cannot exhaust memory and its last lines (where errors are) are still there.
 */
export class OutputCollector {
  text = "";
  /** The last characters, once the head is full (at most `tailLimit`). */
  tail = "";
  /** Characters between the head and the tail that were dropped. */
  dropped = 0;
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
    const tail = this.tail + chunk.slice(room);
    const over = Math.max(tail.length - this.tailLimit, 0);
    this.tail = tail.slice(over);
    this.dropped += over;
  }
}

/** The part of a stream reader used here; Bun's and node's reader types differ in the rest. */
interface StreamReader {
  read(): Promise<{ done: boolean; value?: Uint8Array }>;
  cancel(): Promise<void>;
}
