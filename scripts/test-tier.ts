/**
 * Which tier a test file belongs in, read from what it does (test/README.md explains the tiers).
 * The structure test (test/unit/structure/test-tiers.test.ts) checks every file against it, and
 * `bun scripts/place-tests.ts` moves a misplaced file where it belongs.
 *
 * A file does what the local test helpers and fixtures it imports do, so the signs are looked for
 * through its relative imports too: a test that drives a `PipedCli` spawns cat-code as surely as one
 * that calls `Bun.spawn` itself.
 */
import { existsSync, readFileSync } from "node:fs";
import { basename, dirname, join, relative, resolve } from "node:path";

export const ROOT = join(import.meta.dir, "..");
export const TEST = join(ROOT, "test");

/** Tiers told by what a file does, the lowest first: a file is in the highest one it shows signs of. */
export const DETECTED_TIERS = ["unit", "process", "peers", "pty"] as const;
/** Tiers told by their purpose, not by what they touch: a file there stays there. */
export const CHOSEN_TIERS = ["conformance", "release", "stress"] as const;
export const TIERS = [...DETECTED_TIERS, ...CHOSEN_TIERS] as const;
export type Tier = (typeof TIERS)[number];

/** Folders under test/ that are not tiers: shared helpers and the fixtures tests import. */
export const NOT_TIERS = ["helpers", "fixtures"];

/**
 * The signs of each detected tier. `peers`: a server, SDK or authorization server nobody here
 * wrote. `process`: a child process of any kind (cat-code, our fixture servers, a shell). `pty`:
 * the REPL behind a pseudo-terminal. The real @anthropic-ai/sdk against our Messages stand-in is not
 * a peer: the SDK is cat-code's own model client, part of what is under test, and the stand-in is ours.
 */
const SIGNS: Record<"process" | "peers" | "pty", RegExp> = {
  pty: /\bPtyTerminal\b|\.pty\(/,
  peers:
    /\b(?:EVERYTHING|FILESYSTEM|SDK_V2|SDK_STDIO|SDK_HTTP)_SERVER\b|"server-(?:everything|filesystem)"|node_modules\/@modelcontextprotocol\/|(?:from |import\()"(?:@modelcontextprotocol\/|oidc-provider"|oauth2-mock-server")|oidc-provider-process\.ts"|sdk-[a-z0-9-]*server\.ts"/,
  process:
    /\bBun\.spawn(?:Sync)?\(|node:child_process|\$`|\bcatCode\(|\brun(?:Binary|Source)\(|\bcompiledBinary\(|\b(?:ECHO|CHAOS|MODERN|SDK_STDIO|SDK_V2)_SERVER\b|\bPipedCli\b|\.piped\(|\bspawn(?:Server|Announced)\(|\bfindProcesses\(|\bwaitForNoProcesses\(|(?<![.\w])run\(\[|new (?:StdioTransport|BashTool|HookRunner)\(|command: (?:BUN|process\.execPath|"(?:ba)?sh")\b/,
};

/** Helpers that name things or offer several drivers: what a file does shows in what it calls (`repl.pty(`, `runBinary(`). */
const NAMING_HELPERS = ["paths.ts", "binary.ts", "keeper-modes.ts", "repl-under-test.ts"];

/** Relative imports (static, dynamic, re-exports) of a file, resolved, that exist. */
function localImports(file: string, text: string): string[] {
  const found: string[] = [];
  for (const [, path] of text.matchAll(/(?:from|import\()\s*["'](\.{1,2}\/[^"']+\.ts)["']/g)) {
    const target = resolve(dirname(file), path!);
    // Only the tests' own helpers: src/ is what is tested (its spawning shows through what the test
    // hands it), fixtures/ are mostly run as processes, and the helpers that only name things
    // (paths, runners) show through the names the file uses.
    if (target.startsWith(TEST) && !NAMING_HELPERS.includes(basename(target)) && existsSync(target)) found.push(target);
  }
  return found;
}

/** The detected tier of one file: the highest tier whose signs it or its local imports show. */
export function detectTier(file: string): (typeof DETECTED_TIERS)[number] {
  const seen = new Set<string>();
  const texts: string[] = [];
  const visit = (path: string) => {
    if (seen.has(path)) return;
    seen.add(path);
    const text = readFileSync(path, "utf8");
    texts.push(text);
    for (const next of localImports(path, text)) visit(next);
  };
  visit(file);
  const all = texts.join("\n");
  for (const tier of ["pty", "peers", "process"] as const) if (SIGNS[tier].test(all)) return tier;
  return "unit";
}

/** The tier a test file's path puts it in, or undefined outside any tier folder. */
export function tierInPath(file: string): Tier | undefined {
  const first = relative(TEST, file).split("/")[0];
  return (TIERS as readonly string[]).includes(first!) ? (first as Tier) : undefined;
}

/**
 * Where a test file belongs: a chosen tier keeps it; otherwise the detected tier, the file's area
 * folders kept (`test/mcp/client/x.test.ts` → `test/unit/mcp/client/x.test.ts`). A file in an old
 * location that had a purpose of its own keeps it: `test/reliability/` is the stress tier.
 */
export function placeOf(file: string): string {
  const path = relative(TEST, file).split("/");
  const inPath = tierInPath(file);
  if (inPath && (CHOSEN_TIERS as readonly string[]).includes(inPath)) return file;
  if (path[0] === "reliability") return join(TEST, "stress", ...path.slice(1));
  const area = inPath ? path.slice(1) : path;
  return join(TEST, detectTier(file), ...area);
}
