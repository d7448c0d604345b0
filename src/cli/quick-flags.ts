import type { ArgsDef, ParsedArgs } from "citty";

/**
 * The arguments of a plain command line, as citty's `parseArgs` gives them for `argsDef`, without
 * citty: its parse builds every flag's camelCase and kebab-case aliases and runs node:util's parser,
 * ~0.85 ms of a warm `mcp call`'s CPU (issue 32). Plain means: positionals that do not start with
 * `-`, and each flag of the definition at most once, as `--name value` or `--name=value` (a string;
 * the value not starting with `-`), `--name` or `--no-name` (a boolean). Anything else (an unknown
 * or short flag, `--`, a repeated flag, a missing value, a required positional left out) gives
 * undefined: citty parses that line as it always has, with its errors and its corner cases.
 * test/unit/cli/quick-flags.test.ts holds both parsers to the same answers.
 */
export function quickParse<T extends ArgsDef>(rawArgs: string[], argsDef: T): ParsedArgs<T> | undefined {
  const parsed: Record<string, unknown> = {};
  const positionals: string[] = [];
  for (let i = 0; i < rawArgs.length; i++) {
    const arg = rawArgs[i]!;
    if (!arg.startsWith("-")) {
      positionals.push(arg);
      continue;
    }
    if (!arg.startsWith("--") || arg === "--") return undefined;
    const equals = arg.indexOf("=");
    const name = arg.slice(2, equals === -1 ? undefined : equals);
    const negated = name.startsWith("no-") && equals === -1 && argsDef[name.slice(3)]?.type === "boolean";
    const key = negated ? name.slice(3) : name;
    const def = Object.hasOwn(argsDef, key) ? argsDef[key] : undefined;
    if (!def || key in parsed) return undefined;
    if (def.type === "boolean") {
      if (equals !== -1) return undefined;
      parsed[key] = !negated;
    } else if (def.type === "string") {
      const value = equals === -1 ? rawArgs[++i] : arg.slice(equals + 1);
      if (value === undefined || value.startsWith("-")) return undefined;
      parsed[key] = value;
    } else return undefined;
  }
  const args: Record<string, unknown> = { _: positionals };
  let next = 0;
  for (const [name, def] of Object.entries(argsDef)) {
    if (def.type === "positional") {
      const value = positionals[next++] ?? def.default;
      if (value === undefined && def.required !== false) return undefined;
      args[name] = value;
    } else if (name in parsed) args[name] = parsed[name];
    else if (def.default !== undefined) args[name] = def.default;
    else if (def.required) return undefined;
  }
  return args as ParsedArgs<T>;
}
