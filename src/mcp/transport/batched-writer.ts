/** Where a `BatchedWriter` writes: a Bun `FileSink` (a child's stdin) has this shape. */
export interface LineSink {
  write(chunk: string): unknown;
  flush(): unknown;
}

/**
 * Joins everything written in one tick into a single write and a single flush. A burst of requests
 * (256 calls in flight, each answered and replaced at once) then costs one syscall, not one each;
 * a lone request waits only for the microtask queue to drain. Every caller's promise settles with
 * its batch: all of them fail if the write does.
 */
export class BatchedWriter {
  private queued: string[] = [];
  private batch: Promise<void> | undefined;

  constructor(private readonly sink: LineSink) {}

  write(text: string): Promise<void> {
    this.queued.push(text);
    this.batch ??= Promise.resolve().then(() => this.drain());
    return this.batch;
  }

  private async drain(): Promise<void> {
    const text = this.queued.length === 1 ? this.queued[0]! : this.queued.join("");
    this.queued = [];
    this.batch = undefined;
    const written = this.sink.write(text);
    // A write the pipe could not take at once settles later; its failure (EPIPE) is the flush's too,
    // which the callers hear: this one must not surface as an unhandled rejection.
    if (written instanceof Promise) written.catch(() => {});
    await this.sink.flush();
  }
}
