import { CliError } from "./cli-error.ts";
import { sanitizeForTerminal } from "./terminal-text.ts";

/** Above this, a result is written a slice at a time. */
const SLICE_CHARS = 1 << 20;

// A failed write reaches the callback of `writeStdout`, which turns it into an exit code. Without a
// listener, the stream would also emit it as an uncaught 'error' and print a stack.
process.stdout.on("error", () => {});

/**
 * Results go to stdout, and only results, ending with a newline. A script (a pipe, a file) gets the
 * exact text; a terminal gets it sanitized, since a result from a server or the model must not
 * drive the screen. Each write is awaited, so a large result is whole in the pipe before the
 * process exits. A large text is encoded and written a megabyte at a time: encoding it at once (or
 * appending the newline to it) would hold one more copy of the whole result in memory.
 *
 * A reader that went away (`| head -1`) throws a silent `CliError` with exit 141; any other failed
 * write (a full disk) one with a one-line message and exit 3.
 *
 * `process.stdout.write`, not `Bun.write(Bun.stdout, …)`: with Bun 1.4.5 the latter, called in
 * slices to a full pipe while child processes are read, sometimes wrote a 16 KB block twice.
 */
export async function printResult(result: string): Promise<void> {
  const text = process.stdout.isTTY ? sanitizeForTerminal(result, { keepNewlines: true }) : result;
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
  return new Promise((resolve, reject) =>
    process.stdout.write(chunk, (error) => (error ? reject(writeFailure(error as NodeJS.ErrnoException)) : resolve())),
  );
}

function writeFailure(error: NodeJS.ErrnoException): CliError {
  if (error.code === "EPIPE") return CliError.outputClosed();
  const reason = error.code === "ENOSPC" ? "no space left on the device (ENOSPC)" : error.message;
  return CliError.unavailable(`cannot write the result to stdout: ${reason}`);
}

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}
