/** The exit codes a script can rely on; the README lists them. */
export const ExitCode = {
  Ok: 0,
  /** The tool ran and answered `isError`. */
  ToolError: 1,
  /** A mistake in the command line or the config: nothing was sent. */
  Usage: 2,
  /** The server could not be reached, or the call failed (timeout, crash, protocol error). */
  Unavailable: 3,
} as const;
export type ExitCode = (typeof ExitCode)[keyof typeof ExitCode];

/**
 * An error meant for the person at the terminal. Only the CLI and the REPL turn errors into text:
 * the message is printed as it is, and the exit code follows from the error.
 */
export class CliError extends Error {
  override readonly name = "CliError";
  constructor(
    message: string,
    readonly exitCode: ExitCode,
  ) {
    super(message);
  }

  static usage(message: string): CliError {
    return new CliError(message, ExitCode.Usage);
  }

  static unavailable(message: string): CliError {
    return new CliError(message, ExitCode.Unavailable);
  }
}
