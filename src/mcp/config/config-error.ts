/** What went wrong with a config write, as a code a caller can branch on. */
export type ConfigErrorCode =
  | "invalid-name"
  | "invalid-entry"
  | "duplicate-name"
  | "unknown-name"
  | "corrupt-file"
  | "unwritable-file"
  | "locked";

/**
 * A config file could not be changed as asked. Nothing was written. The message names the file and
 * says what to do; the CLI prints it as it is.
 */
export class ConfigError extends Error {
  override readonly name = "ConfigError";
  constructor(
    message: string,
    readonly code: ConfigErrorCode,
    /** The file that was to be changed. */
    readonly path: string,
  ) {
    super(message);
  }
}
