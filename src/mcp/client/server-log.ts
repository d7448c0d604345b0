import * as v from "valibot";
import { cutText } from "../../system/cut-text.ts";
import { exceedsDepth } from "../../system/json-depth.ts";
import { LOGGING_LEVELS, LoggingLevel } from "../logging-level.ts";

/** One `notifications/message` from a server, with the data already rendered as bounded text. */
export interface ServerLogEntry {
  /** The server's name in the config (the pool names it; a bare client uses its description). */
  server: string;
  level: LoggingLevel;
  logger?: string;
  /** The message: a string as it is, anything else as JSON; at most MAX_LOG_DATA_CHARS. */
  data: string;
}

/** A log line is a line, not a dump: the rest of a long message is cut. */
export const MAX_LOG_DATA_CHARS = 1000;
const MAX_LOGGER_CHARS = 100;
/** Data nested deeper than this is not rendered (JSON.stringify would walk all of it). */
const MAX_LOG_DATA_DEPTH = 32;

const LogMessageParams = v.object({
  level: LoggingLevel,
  logger: v.optional(v.string()),
  data: v.unknown(),
});

/**
 * The entry a `notifications/message` carries, or undefined when its params are malformed (dropped).
 * `shown` cuts each text to its bound; the client's also masks (a server may log the credentials it
 * received), such that no cut leaves the start of a secret showing.
 */
export function parseServerLog(server: string, params: unknown, shown: (text: string, max: number) => string = cutText): ServerLogEntry | undefined {
  const parsed = v.safeParse(LogMessageParams, params);
  if (!parsed.success) return undefined;
  const { level, logger, data } = parsed.output;
  const entry: ServerLogEntry = { server, level, data: shown(renderData(data), MAX_LOG_DATA_CHARS) };
  if (logger !== undefined) entry.logger = shown(logger, MAX_LOGGER_CHARS);
  return entry;
}

/** True when `level` is `min` or more severe. */
export function atLeast(level: LoggingLevel, min: LoggingLevel): boolean {
  return LOGGING_LEVELS.indexOf(level) >= LOGGING_LEVELS.indexOf(min);
}

function renderData(data: unknown): string {
  if (typeof data === "string") return data;
  if (exceedsDepth(data, MAX_LOG_DATA_DEPTH)) return `(data nested deeper than ${MAX_LOG_DATA_DEPTH} levels, not shown)`;
  return JSON.stringify(data) ?? String(data);
}

