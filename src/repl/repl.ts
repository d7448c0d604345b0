import { ReplController, type ReplOptions } from "./repl-controller.ts";

export type { ReplOptions };

/**
 * The interactive agent (see ReplController): the REPL's entry point for `cat-code` without -p.
 * Resolves the exit code once the user has left and every server is closed.
 */
export function runRepl(options: ReplOptions): Promise<number> {
  return new ReplController(options).run();
}
