/** What went wrong with a config file or entry, as a kind a caller can branch on. */
export type ConfigErrorKind =
  /** A server name a command may not create. */
  | "invalid-name"
  /** An entry that would not load (a bad field, an unset `${VAR}`). */
  | "invalid-entry"
  | "duplicate-name"
  | "unknown-name"
  /** A file named on the command line (`--mcp-config`) that does not exist. */
  | "missing-file"
  /** A file that cannot be read as a config: not a regular file, too large, unreadable. */
  | "unreadable-file"
  /** Text that is not JSON, or JSON of the wrong shape for the edit. */
  | "corrupt-file"
  | "unwritable-file"
  | "locked";

/**
 * The config layer's one error. The message says what happened and what to do, naming the file
 * when there is one; the CLI prints it as it is. When a write fails, nothing was written.
 */
export class ConfigError extends Error {
  override readonly name = "ConfigError";
  constructor(
    message: string,
    readonly kind: ConfigErrorKind,
    /** The file concerned, when the error is about one. */
    readonly path?: string,
  ) {
    super(message);
  }
}
