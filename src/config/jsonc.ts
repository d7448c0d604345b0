import type * as JsoncParser from "jsonc-parser";

let loaded: typeof JsoncParser | undefined;

/**
 * jsonc-parser, evaluated at its first use. Evaluating it builds its tables of indentation strings
 * (~1.5 ms of CPU), which a warm `mcp call | tools | list` need not pay (issue 32): a valid mcp.json
 * is read with JSON.parse, and jsonc-parser is needed only to say where a broken one breaks and to
 * edit a file. `require`, not an import: the build then keeps the package in a lazy wrapper, as
 * log.ts does with consola.
 */
export function jsonc(): typeof JsoncParser {
  // The ES module build: the package's `main` is a UMD bundle whose `require("./impl/…")` calls the
  // build cannot follow, so the compiled binary would not find them.
  loaded ??= require("jsonc-parser/lib/esm/main.js") as typeof JsoncParser;
  return loaded;
}
