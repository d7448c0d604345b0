import { settlesWithin } from "../../system/timers.ts";

/**
 * Reads one output stream of a child process as text, keeping at most `limit` characters in memory
 * and counting the rest, so a command that prints gigabytes cannot exhaust memory.
 */
export class OutputCollector {
  text = "";
  /** Characters that arrived after the limit and were dropped. */
  dropped = 0;
  readonly done: Promise<void>;
  private readonly reader: StreamReader;

  constructor(
    stream: ReadableStream<Uint8Array>,
    private readonly limit: number,
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

  private add(chunk: string): void {
    const room = Math.max(this.limit - this.text.length, 0);
    if (chunk.length <= room) {
      this.text += chunk;
    } else {
      this.text += chunk.slice(0, room);
      this.dropped += chunk.length - room;
    }
  }
}

/** The part of a stream reader used here; Bun's and node's reader types differ in the rest. */
interface StreamReader {
  read(): Promise<{ done: boolean; value?: Uint8Array }>;
  cancel(): Promise<void>;
}
