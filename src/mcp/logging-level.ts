import * as v from "valibot";

/**
 * A server log message's level. Its own module, re-exported by stateless-protocol.ts: a warm
 * command needs it for the keeper's wire, and importing it from there would build that era's
 * fifty schemas on every warm command (issue 32; see scripts/bench/speed-changes.md).
 */

/** Severities in rising order, as syslog has them: "warning and above" is an index comparison. */
export const LOGGING_LEVELS = ["debug", "info", "notice", "warning", "error", "critical", "alert", "emergency"] as const;
export const LoggingLevel = v.picklist(LOGGING_LEVELS);
export type LoggingLevel = v.InferOutput<typeof LoggingLevel>;
