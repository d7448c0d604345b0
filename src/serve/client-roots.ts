import { statSync } from "node:fs";
import { fileURLToPath } from "node:url";
import * as v from "valibot";
import { log } from "../log.ts";
import type { RelayedRoot, RootsProvider } from "../mcp/index.ts";
import { describeIssue } from "../system/schema-issue.ts";

/** The most roots taken from one answer: more than any editor's workspace, few enough to bound it. */
export const MAX_CLIENT_ROOTS = 64;
/** A root's uri or name longer than this is left out: a path is never that long, and it is the client's text, bounded. */
export const MAX_ROOT_CHARS = 4_096;

/** A client's `roots/list` answer: each root is checked on its own, so one bad root does not lose the others. */
const ClientRootsAnswer = v.looseObject({ roots: v.array(v.looseObject({ uri: v.string(), name: v.optional(v.string()) })) });

/** A client's root that is a folder on this machine: as the client gave it, and its path here. */
export interface LocalRoot extends RelayedRoot {
  path: string;
}

/**
 * A client's `roots/list` answer, checked the one way for both uses (roots adopted at a handshake,
 * roots relayed to the server that asked during a call): of its first MAX_CLIENT_ROOTS roots, the
 * `file://` URIs of folders that exist on this machine, within MAX_ROOT_CHARS. A server behind
 * `mcp serve` runs here: a folder that is not here means nothing to it, or is a lure. Every other
 * root is dropped with a debug line; a malformed answer throws.
 */
export function localRoots(answer: unknown): LocalRoot[] {
  const parsed = v.safeParse(ClientRootsAnswer, answer);
  if (!parsed.success) throw new Error(`its roots/list answer is malformed: ${describeIssue(parsed.issues[0]).slice(0, 200)}`);
  const kept: LocalRoot[] = [];
  for (const { uri, name } of parsed.output.roots.slice(0, MAX_CLIENT_ROOTS)) {
    try {
      kept.push({ uri, ...(name === undefined ? {} : { name }), path: localFolder(uri, name) });
    } catch (error) {
      log.debug(`mcp serve: dropped the client's root ${uri.slice(0, 200)}: ${(error as Error).message}`);
    }
  }
  return kept;
}

/** The path of a root's folder on this machine; throws saying why it is not one. */
function localFolder(uri: string, name: string | undefined): string {
  if (uri.length > MAX_ROOT_CHARS || (name?.length ?? 0) > MAX_ROOT_CHARS) throw new Error(`its uri or name is longer than ${MAX_ROOT_CHARS} characters`);
  if (!uri.startsWith("file://")) throw new Error("it is not a file:// URI");
  // Throws for a file URL of another host, or one that is not a path.
  const path = fileURLToPath(uri);
  if (!statSync(path, { throwIfNoEntry: false })?.isDirectory()) throw new Error("there is no such folder on this machine");
  return path;
}

/**
 * The client's folders (`roots/list`, asked of a client that declared `roots`) added to the roots
 * cat-code's servers are told of, so a server behind `mcp serve` works where the client's user
 * works. Only folders on this machine that exist are taken (`localRoots`); a malformed answer is a
 * debug line. Roots are only ever added: a server is not told to stop using a folder it was
 * given. Returns how many were new.
 */
export async function adoptClientRoots(ask: () => Promise<unknown>, roots: RootsProvider): Promise<number> {
  let found: LocalRoot[];
  try {
    found = localRoots(await ask());
  } catch (error) {
    log.debug(`mcp serve: the client did not list its roots: ${(error as Error).message}`);
    return 0;
  }
  const before = roots.list().length;
  for (const root of found) {
    try {
      roots.add(root.path);
    } catch (error) {
      // Gone since it was checked.
      log.debug(`mcp serve: skipped the client's root ${root.uri.slice(0, 200)}: ${(error as Error).message}`);
    }
  }
  return roots.list().length - before;
}
