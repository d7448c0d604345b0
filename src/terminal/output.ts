/** Above this, a result is written a slice at a time. */
const SLICE_CHARS = 1 << 20;

/**
 * Results go to stdout, and only results, ending with a newline. Each write is awaited, so a large
 * result is whole in the pipe before the process exits. A large text is encoded and written a
 * megabyte at a time: encoding it at once (or appending the newline to it) would hold one more
 * copy of the whole result in memory.
 *
 * `process.stdout.write`, not `Bun.write(Bun.stdout, …)`: with Bun 1.4.5 the latter, called in
 * slices to a full pipe while child processes are read, sometimes wrote a 16 KB block twice.
 */
export async function printResult(text: string): Promise<void> {
  for (let start = 0; start < text.length; ) {
    let end = Math.min(start + SLICE_CHARS, text.length);
    // Never split a surrogate pair: each half alone would be written as U+FFFD.
    if (end < text.length && isHighSurrogate(text.charCodeAt(end - 1))) end--;
    await writeStdout(text.slice(start, end));
    start = end;
  }
  if (!text.endsWith("\n")) await writeStdout("\n");
}

function writeStdout(chunk: string): Promise<void> {
  return new Promise((resolve, reject) => process.stdout.write(chunk, (error) => (error ? reject(error) : resolve())));
}

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}
