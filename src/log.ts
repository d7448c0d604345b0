import type { ConsolaInstance, ConsolaReporter, LogType } from "consola";

/**
 * The one logger. Everything it prints goes to stderr, so stdout carries only results and a script
 * can pipe `cat-code mcp call` safely. `CAT_CODE_DEBUG=1` (or `--verbose`) shows debug lines.
 *
 * Printing is consola's, but consola takes about 25 ms to load, close to what a warm `mcp call`
 * takes in all, and most commands print no log line. So `log` only checks the level, and consola is
 * loaded (synchronously: a line must come out where it is logged) by the first line that is printed.
 */

/** consola's numbers: a line is printed when the logger's level is at least its own. */
const LEVEL_OF = { error: 0, warn: 1, info: 3, debug: 4 } as const satisfies Partial<Record<LogType, number>>;

let level: number = process.env.CAT_CODE_DEBUG ? 4 : 3;
let consola: ConsolaInstance | undefined;
/** consola's own reporters, kept so that a filter wraps them once, however often it is installed. */
let ownReporters: ConsolaReporter[] = [];
let argumentFilter: ((arg: unknown, debug: boolean) => unknown) | undefined;

function instance(): ConsolaInstance {
  if (!consola) {
    const { createConsola } = require("consola") as typeof import("consola");
    consola = createConsola({ level, stdout: process.stderr, stderr: process.stderr, formatOptions: { date: false } });
    ownReporters = [...consola.options.reporters];
    if (argumentFilter) applyFilter(consola, argumentFilter);
  }
  return consola;
}

function print(type: keyof typeof LEVEL_OF, args: unknown[]): void {
  if (level < LEVEL_OF[type]) return;
  (instance()[type] as (...args: unknown[]) => void)(...args);
}

export const log = {
  get level(): number {
    return level;
  },
  set level(value: number) {
    level = value;
    if (consola) consola.level = value;
  },
  debug: (...args: unknown[]): void => print("debug", args),
  info: (...args: unknown[]): void => print("info", args),
  warn: (...args: unknown[]): void => print("warn", args),
  error: (...args: unknown[]): void => print("error", args),
  /** consola's options (tests read its reporters to put them back). */
  get options(): ConsolaInstance["options"] {
    return instance().options;
  },
  setReporters(reporters: ConsolaReporter[]): void {
    instance().setReporters(reporters);
  },
};

/**
 * Warnings quote servers (tool names, reasons, stderr lines) and config files, so the front end that
 * owns the terminal installs one filter that every printed argument passes, whoever logs it (the
 * layers below it cannot import the terminal's sanitizer). Installed once; a later call replaces it.
 */
export function filterLogArguments(filter: (arg: unknown, debug: boolean) => unknown): void {
  argumentFilter = filter;
  if (consola) applyFilter(consola, filter);
}

function applyFilter(target: ConsolaInstance, filter: (arg: unknown, debug: boolean) => unknown): void {
  target.setReporters(
    ownReporters.map(
      (reporter): ConsolaReporter => ({
        log: (logObj, ctx) => reporter.log({ ...logObj, args: logObj.args.map((arg) => filter(arg, level >= 4)) }, ctx),
      }),
    ),
  );
}

export function enableDebugLogging(): void {
  log.level = 4;
}
