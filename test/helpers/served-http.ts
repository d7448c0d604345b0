import { spawnAnnounced, type AnnouncedProcess } from "../../scripts/announced-process.ts";
import { tempDir } from "./paths.ts";

/** What `cat-code mcp serve --http` prints once it listens: its URL, then its new token (match 1 and 2). */
export const SERVE_HTTP_READY = /listening on (http:\/\/127\.0\.0\.1:\d+\/mcp)\ntoken \(shown once, kept in .*\): ([0-9a-f]{64})\n/;

/** `argv` (a `mcp serve --http` command line), in a CAT_CODE_HOME of its own unless given, once it listens. */
export function serveHttpProcess(argv: string[], home = tempDir()): Promise<AnnouncedProcess<"ignore">> {
  return spawnAnnounced(argv, { ready: SERVE_HTTP_READY, stdin: "ignore", label: "cat-code mcp serve --http", env: { CAT_CODE_HOME: home }, timeoutMs: 60_000 });
}
