import { createConsola, type ConsolaReporter } from "consola";

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

/** consola's own reporters, kept so that a filter wraps them once, however often it is installed. */
const reporters = [...log.options.reporters];

/**
 * Warnings quote servers (tool names, reasons, stderr lines) and config files, so the front end that
 * owns the terminal installs one filter that every printed argument passes, whoever logs it (the
 * layers below it cannot import the terminal's sanitizer). Installed once; a later call replaces it.
 */
export function filterLogArguments(filter: (arg: unknown, debug: boolean) => unknown): void {
  log.setReporters(
    reporters.map(
      (reporter): ConsolaReporter => ({
        log: (logObj, ctx) => reporter.log({ ...logObj, args: logObj.args.map((arg) => filter(arg, log.level >= 4)) }, ctx),
      }),
    ),
  );
}
export function enableDebugLogging(): void {
  log.level = 4;
}
