import type { ArgsDef } from "citty";
import { CliError } from "../terminal/cli-error.ts";
import { unknownNameMessage } from "../terminal/suggest.ts";

/**
 * citty ignores flags it does not know; a mistyped `--jsn` would then be silently dropped. Every
 * command checks its raw arguments against its definition first.
 */
export function rejectUnknownFlags(rawArgs: string[], argsDef: ArgsDef): void {
  const known = new Set(["help", "h"]);
  for (const [name, def] of Object.entries(argsDef)) {
    if (def.type === "positional") continue;
    known.add(name);
    const aliases = "alias" in def ? def.alias : undefined;
    for (const alias of Array.isArray(aliases) ? aliases : aliases ? [aliases] : []) known.add(alias);
  }
  for (const arg of rawArgs) {
    if (arg === "--") return;
    if (!arg.startsWith("-") || arg === "-" || /^-\d/.test(arg)) continue;
    const name = arg.replace(/^--?/, "").split("=")[0] ?? "";
    const bare = name.startsWith("no-") && known.has(name.slice(3)) ? name.slice(3) : name;
    if (!known.has(bare)) {
      const flags = [...known].filter((f) => f.length > 1).map((f) => `--${f}`);
      throw CliError.usage(unknownNameMessage("option", `--${bare}`, flags));
    }
  }
}
