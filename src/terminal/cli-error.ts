/** The exit codes a script can rely on; the README lists them. */
export const ExitCode = {
  Ok: 0,
  /** The tool ran and answered `isError`. */
  ToolError: 1,
  /** A mistake in the command line or the config: nothing was sent. */
  Usage: 2,
  /** The server could not be reached, or the call failed (timeout, crash, protocol error); or the result could not be written. */
  Unavailable: 3,
  /** A bug in cat-code. */
  Internal: 4,
  /** The server needs an OAuth sign-in: run `cat-code mcp login <server>`. */
  NeedsAuth: 5,
  /**
   * Whoever read stdout went away (`cat-code … | head -1`): 128 + SIGPIPE, what a shell reports for
   * a program that a closed pipe ended, so `set -o pipefail` scripts can tell it from a failure.
   */
  OutputClosed: 141,
} as const;
export type ExitCode = (typeof ExitCode)[keyof typeof ExitCode];

/**
 * An error meant for the person at the terminal. Only the CLI and the REPL turn errors into text:
 * the message is printed as it is (unless `silent`), and the exit code follows from the error.
 */
export class CliError extends Error {
  override readonly name = "CliError";
  constructor(
    message: string,
    readonly exitCode: ExitCode,
    /** Nothing to print: the exit code says it all (a closed stdout has no one to tell). */
    readonly silent = false,
  ) {
    super(message);
  }

  static usage(message: string): CliError {
    return new CliError(message, ExitCode.Usage);
  }

  static unavailable(message: string): CliError {
    return new CliError(message, ExitCode.Unavailable);
  }

  /** A server that wants an OAuth sign-in; `reason` names the command that gives it. */
  static needsAuth(reason: string): CliError {
    return new CliError(reason, ExitCode.NeedsAuth);
  }

  static outputClosed(): CliError {
    return new CliError("stdout was closed", ExitCode.OutputClosed, true);
  }
}
