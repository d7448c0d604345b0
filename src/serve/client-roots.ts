import { fileURLToPath } from "node:url";
import * as v from "valibot";
import { log } from "../log.ts";
import type { RootsProvider } from "../mcp/index.ts";
import { ListRootsResult } from "../mcp/stateless-protocol.ts";

/** The most roots taken from one answer: more than any editor's workspace, few enough to bound it. */
export const MAX_CLIENT_ROOTS = 64;

/**
 * The client's folders (`roots/list`, asked of a client that declared `roots`) added to the roots
 * cat-code's servers are told of, so a server behind `mcp serve` works where the client's user
 * works. Only folders on this machine that exist are taken; one that is gone, or a malformed
 * answer, is skipped with a debug line. Roots are only ever added: a server is not told to stop
 * using a folder it was given. Returns how many were new.
 */
export async function adoptClientRoots(ask: () => Promise<unknown>, roots: RootsProvider): Promise<number> {
  let answer: unknown;
  try {
    answer = await ask();
  } catch (error) {
    log.debug(`mcp serve: the client did not list its roots: ${(error as Error).message}`);
    return 0;
  }
  const parsed = v.safeParse(ListRootsResult, answer);
  if (!parsed.success) {
    log.debug(`mcp serve: the client's roots/list answer is malformed: ${parsed.issues[0].message}`);
    return 0;
  }
  const before = roots.list().length;
  for (const root of parsed.output.roots.slice(0, MAX_CLIENT_ROOTS)) {
    try {
      roots.add(fileURLToPath(root.uri));
    } catch (error) {
      log.debug(`mcp serve: skipped the client's root ${root.uri.slice(0, 200)}: ${(error as Error).message}`);
    }
  }
  return roots.list().length - before;
}
