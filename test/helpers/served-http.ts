import { spawnAnnounced, type AnnouncedProcess } from "./listening-fixture.ts";
import { tempDir } from "./paths.ts";

/** What `cat-code mcp serve --http` prints once it listens: its URL, then its new token (match 1 and 2). */
export const SERVE_HTTP_READY = /listening on (http:\/\/127\.0\.0\.1:\d+\/mcp)\ntoken \(shown once, kept in .*\): ([0-9a-f]{64})\n/;

/** `argv` (a `mcp serve --http` command line), in a CAT_CODE_HOME of its own unless given, once it listens. */
export function serveHttpProcess(argv: string[], home = tempDir()): Promise<AnnouncedProcess<"ignore">> {
  return spawnAnnounced(argv, { ready: SERVE_HTTP_READY, stdin: "ignore", label: "cat-code mcp serve --http", env: { CAT_CODE_HOME: home }, timeoutMs: 60_000 });
}

/** A listening `mcp serve --http`, as its clients reach it. */
export interface ServedHttp {
  url: URL;
  /** `Authorization: Bearer <token>`. */
  authorization: string;
  /** For an SDK client's transport: the bearer token on every request. */
  requestInit: RequestInit;
  /** Ends it (SIGTERM) and waits for it to exit. */
  stop(): Promise<void>;
}

/** serveHttpProcess, as its clients reach it. */
export async function servedOverHttp(argv: string[]): Promise<ServedHttp> {
  const served = await serveHttpProcess(argv);
  const authorization = `Bearer ${served.match[2]}`;
  return {
    url: new URL(served.match[1] as string),
    authorization,
    requestInit: { headers: { Authorization: authorization } },
    async stop() {
      served.child.kill("SIGTERM");
      await served.child.exited;
    },
  };
}

/** The text of a tool result's content blocks, joined. */
export function resultText(result: object): string {
  return ((result as { content: unknown }).content as Array<{ text?: string }>).map((block) => block.text).join("");
}
