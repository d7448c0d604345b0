import type { ArgsDef } from "citty";
import { CliError } from "../terminal/cli-error.ts";

/**
 * The root command's flags, read from the raw arguments. citty's parser takes the word after a
 * value flag whatever it is (`-p --model x` would make `--model` the prompt) and turns a value flag
 * at the end into "" (a silent default), so the root reads its own: a value flag without its value
 * is a usage error, and the words left over are the prompt.
 */
export interface ParsedFlags {
  /** By the flag's long name; repeated value flags keep every value. */
  values: Map<string, string[]>;
  booleans: Map<string, boolean>;
  positionals: string[];
}

/** Flags whose value may be left out: `--resume` alone opens the list of sessions. */
const OPTIONAL_VALUE = new Set(["resume"]);

/** `lenient`: a value flag without its value is skipped, not an error (finding a subcommand's name, whose own flags differ). */
export function parseFlags(rawArgs: string[], argsDef: ArgsDef, { lenient = false } = {}): ParsedFlags {
  const names = new Map<string, string>();
  for (const [name, def] of Object.entries(argsDef)) {
    if (def.type === "positional") continue;
    names.set(name, name);
    const aliases = "alias" in def ? def.alias : undefined;
    for (const alias of Array.isArray(aliases) ? aliases : aliases ? [aliases] : []) names.set(alias, name);
  }
  const parsed: ParsedFlags = { values: new Map(), booleans: new Map(), positionals: [] };
  for (let i = 0; i < rawArgs.length; i++) {
    const arg = rawArgs[i] as string;
    if (arg === "--") {
      parsed.positionals.push(...rawArgs.slice(i + 1));
      break;
    }
    if (!arg.startsWith("-") || arg === "-" || /^-\d/.test(arg)) {
      parsed.positionals.push(arg);
      continue;
    }
    const [written = "", inline] = splitOnce(arg.replace(/^--?/, ""), "=");
    const negated = written.startsWith("no-") && names.has(written.slice(3)) && !names.has(written);
    const name = names.get(negated ? written.slice(3) : written);
    const def = name === undefined ? undefined : argsDef[name];
    // Unknown flags are left to rejectUnknownFlags, which names the nearest known ones.
    if (name === undefined || def === undefined) continue;
    if (def.type !== "string") {
      parsed.booleans.set(name, !negated && inline !== "false");
      continue;
    }
    let value = inline;
    if (value === undefined) {
      const next = rawArgs[i + 1];
      if (next !== undefined && (!next.startsWith("-") || next === "-")) value = rawArgs[++i];
    }
    if (value === undefined && OPTIONAL_VALUE.has(name)) value = "";
    if (value === undefined || (value === "" && !OPTIONAL_VALUE.has(name))) {
      if (lenient) continue;
      const hint = "valueHint" in def && def.valueHint ? def.valueHint : "value";
      throw CliError.usage(`--${name} needs a value: --${name} <${hint}> (or --${name}=<${hint}> for one that starts with -)`);
    }
    parsed.values.set(name, [...(parsed.values.get(name) ?? []), value]);
  }
  return parsed;
}

/** The last value given for a flag (a repeated flag's earlier values are overridden, as usual). */
export function lastValue(parsed: ParsedFlags, name: string): string | undefined {
  return parsed.values.get(name)?.at(-1);
}

/**
 * The subcommand the arguments name, if the first word is one (`cat-code mcp list`); else the
 * words are a prompt (`cat-code "fix the tests"`).
 */
export function subcommandWord(rawArgs: string[], argsDef: ArgsDef, subcommands: readonly string[]): string | undefined {
  const first = parseFlags(rawArgs, argsDef, { lenient: true }).positionals[0];
  return first !== undefined && subcommands.includes(first) ? first : undefined;
}

function splitOnce(text: string, separator: string): [string, string | undefined] {
  const at = text.indexOf(separator);
  return at === -1 ? [text, undefined] : [text.slice(0, at), text.slice(at + 1)];
}
