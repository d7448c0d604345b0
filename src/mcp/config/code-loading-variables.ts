/**
 * Environment variables that change which code a program loads or runs before its own: a shell
 * sources `BASH_ENV`/`ENV`, Node runs `NODE_OPTIONS --require`, the dynamic linker loads
 * `LD_PRELOAD`, `PATH` picks what `node` or `npx` even is. A project entry that sets one can run
 * anything, whatever its command says, so the approval question flags them.
 */
const EXACT = new Set([
  "PATH",
  "BASH_ENV",
  "ENV",
  "NODE_OPTIONS",
  "NODE_PATH",
  "LD_PRELOAD",
  "LD_LIBRARY_PATH",
  "LD_AUDIT",
  "PYTHONPATH",
  "PYTHONSTARTUP",
  "PYTHONHOME",
  "PERL5OPT",
  "PERL5LIB",
  "RUBYOPT",
  "RUBYLIB",
  "JAVA_TOOL_OPTIONS",
  "BUN_OPTIONS",
  "PROMPT_COMMAND",
  "SHELLOPTS",
  "BASHOPTS",
  "ZDOTDIR",
  "GIT_CONFIG_GLOBAL",
  "NPM_CONFIG_USERCONFIG",
]);

/** `DYLD_INSERT_LIBRARIES`, `DYLD_LIBRARY_PATH` and the rest of macOS's loader variables. */
const PREFIXES = ["DYLD_"];

export function loadsCode(name: string): boolean {
  const upper = name.toUpperCase();
  return EXACT.has(upper) || PREFIXES.some((prefix) => upper.startsWith(prefix));
}
