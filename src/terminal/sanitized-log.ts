import { filterLogArguments } from "../log.ts";
import { sanitizeForTerminal } from "./terminal-text.ts";

/**
 * Every line the logger prints passes the terminal sanitizer: warnings quote servers and config
 * files. An Error is shown by its message; its stack only in debug mode.
 */
export function sanitizeLogOutput(): void {
  filterLogArguments((arg, debug) => {
    if (typeof arg === "string") return sanitizeForTerminal(arg, { keepNewlines: true });
    if (arg instanceof Error) return sanitizeForTerminal(debug ? (arg.stack ?? arg.message) : arg.message, { keepNewlines: true });
    return arg;
  });
}
