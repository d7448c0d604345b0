import { CliError } from "../terminal/cli-error.ts";

// Light on purpose: the root command's flags import it, and `--version` must not load the MCP code.

/** `--root <dir>`, for every command that starts servers: the folders they may work in besides the working directory. */
export const rootArg = {
  type: "string",
  description: "Also tell MCP servers they may work in this folder (repeatable; the working directory always is one)",
  valueHint: "dir",
} as const;

/**
 * Every `--root` value: citty keeps only the last of a repeated flag, so they are read from the raw
 * arguments (`--root a`, `--root=a`), up to a `--` that ends the options.
 */
export function rootFlagValues(rawArgs: string[]): string[] {
  const values: string[] = [];
  for (let i = 0; i < rawArgs.length; i++) {
    const arg = rawArgs[i] as string;
    if (arg === "--") break;
    if (arg.startsWith("--root=")) {
      values.push(arg.slice("--root=".length));
      continue;
    }
    if (arg !== "--root") continue;
    const value = rawArgs[++i];
    if (value === undefined || value.startsWith("-")) throw CliError.usage("--root needs a folder: --root <dir> (or --root=<dir> for a name that starts with -)");
    values.push(value);
  }
  for (const value of values) if (value === "") throw CliError.usage("--root needs a folder: --root <dir>");
  return values;
}
