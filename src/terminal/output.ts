import { CliError, ExitCode } from "./cli-error.ts";
import { exitAfterCleanup } from "./shutdown.ts";
import { sanitizeForTerminal } from "./terminal-text.ts";

/** Above this, a result is written a slice at a time. */
const SLICE_CHARS = 1 << 20;

let guarded = false;

/**
 * A failed write to stdout is also emitted as an 'error' event, which without a listener prints a
 * stack. A reader that went away (EPIPE) ends cat-code as SIGPIPE would: cleanups, then 141. Other
 * failures reach the callback of the write that failed (`printResult` reports them).
 */
export function guardStdout(): void {
  if (guarded) return;
  guarded = true;
  process.stdout.on("error", (error: NodeJS.ErrnoException) => {
    if (error.code === "EPIPE") exitAfterCleanup(ExitCode.OutputClosed);
  });
}

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
  guardStdout();
  const text = process.stdout.isTTY ? sanitizeForTerminal(result, { keepNewlines: true }) : result;
  await printRaw(text);
  if (!text.endsWith("\n")) await writeStdout("\n");
}

/**
 * Data to stdout exactly as given, nothing added or sanitized: what a script asked for when stdout
 * is not a terminal (a resource's text, a blob's decoded bytes: `mcp read … > file` is the file).
 * Written a megabyte at a time; failures as in `printResult`.
 */
export async function printRaw(data: string | Uint8Array): Promise<void> {
  guardStdout();
  for (let start = 0; start < data.length; ) {
    let end = Math.min(start + SLICE_CHARS, data.length);
    // Never split a surrogate pair: each half alone would be written as U+FFFD.
    if (typeof data === "string" && end < data.length && isHighSurrogate(data.charCodeAt(end - 1))) end--;
    await writeStdout(data.slice(start, end));
    start = end;
  }
}

function writeStdout(chunk: string | Uint8Array): Promise<void> {
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
