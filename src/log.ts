import { createConsola, type ConsolaReporter } from "consola";
import { sanitizeForTerminal } from "./terminal/terminal-text.ts";

/**
 * The one logger. Everything it prints goes to stderr, so stdout carries only results and a script
 * can pipe `cat-code mcp call` safely. `CAT_CODE_DEBUG=1` (or `--verbose`) shows debug lines.
 */
export const log = createConsola({
  level: process.env.CAT_CODE_DEBUG ? 4 : 3,
  stdout: process.stderr,
  stderr: process.stderr,
  formatOptions: { date: false },
});

/**
 * Warnings quote servers (tool names, reasons, stderr lines) and config files: this is the one
 * place where everything the logger prints passes the terminal sanitizer, whoever logs it. An
 * Error is shown by its message; its stack only in debug mode.
 */
log.setReporters(
  log.options.reporters.map(
    (reporter): ConsolaReporter => ({
      log: (logObj, ctx) => reporter.log({ ...logObj, args: logObj.args.map((arg) => safeArgument(arg, log.level >= 4)) }, ctx),
    }),
  ),
);

function safeArgument(arg: unknown, debug: boolean): unknown {
  if (typeof arg === "string") return sanitizeForTerminal(arg, { keepNewlines: true });
  if (arg instanceof Error) return sanitizeForTerminal(debug ? (arg.stack ?? arg.message) : arg.message, { keepNewlines: true });
  return arg;
}

export function enableDebugLogging(): void {
  log.level = 4;
}
