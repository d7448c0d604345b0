import { formatBytes } from "../system/format-bytes.ts";
import { systemClock, type Clock } from "../system/clock.ts";
import { CliError } from "../terminal/cli-error.ts";

/** What `-p` takes on stdin: a log or a diff, not a disk image. */
export const MAX_STDIN_BYTES = 10 * 1024 * 1024;

export interface StdinOptions {
  maxBytes?: number;
  /**
   * Give up when nothing at all has come by then: a script may run `cat-code -p "…"` with a stdin
   * it inherited and never closes, which would otherwise wait forever. Once data comes, it is read
   * to its end. Absent: wait as long as it takes (stdin is the prompt itself).
   */
  firstDataWithinMs?: number;
  clock?: Clock;
}

/**
 * All of stdin as text, refused past `maxBytes` with a usage error (nothing is sent): reading it
 * whole first would let `cat big.bin | cat-code -p` fill the memory. Undefined when nothing came
 * within `firstDataWithinMs`.
 */
export async function readBoundedStdin(stream: ReadableStream<Uint8Array> = Bun.stdin.stream(), options: StdinOptions = {}): Promise<string | undefined> {
  const maxBytes = options.maxBytes ?? MAX_STDIN_BYTES;
  const clock = options.clock ?? systemClock;
  const chunks: Uint8Array[] = [];
  let bytes = 0;
  const reader = stream.getReader();
  let first = reader.read();
  if (options.firstDataWithinMs !== undefined) {
    let timer: ReturnType<Clock["setTimeout"]> | undefined;
    const quiet = new Promise<"quiet">((resolve) => (timer = clock.setTimeout(() => resolve("quiet"), options.firstDataWithinMs as number)));
    const came = await Promise.race([first, quiet]);
    if (timer) clock.clearTimeout(timer);
    if (came === "quiet") {
      // Not awaited: a stdin that never ends would hold this up too; the process exits without it.
      void reader.cancel().catch(() => {});
      return undefined;
    }
    first = Promise.resolve(came);
  }
  for (let next = first; ; next = reader.read()) {
    const { done, value } = await next;
    if (done) break;
    bytes += value.byteLength;
    if (bytes > maxBytes) {
      await reader.cancel().catch(() => {});
      throw CliError.usage(`stdin is over ${formatBytes(maxBytes)}: give -p a smaller input (or a file's path in the prompt, for the model to read)`);
    }
    chunks.push(value);
  }
  return new TextDecoder().decode(Buffer.concat(chunks));
}
