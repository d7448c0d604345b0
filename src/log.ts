import { createConsola } from "consola";

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

export function enableDebugLogging(): void {
  log.level = 4;
}
