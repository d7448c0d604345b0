import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { Subprocess } from "bun";
import type { RecordedRequest } from "../../fixtures/oauth/request-record.ts";
import { BUN, REPO, tempDir } from "./paths.ts";

export type { RecordedRequest };

export const OAUTH_SERVER = join(REPO, "fixtures", "oauth", "oauth-server.ts");

/** A running fixtures/oauth/oauth-server.ts: an authorization server and the MCP server it protects. */
export interface OAuthServerProcess {
  /** The protected MCP endpoint, `http://127.0.0.1:<port>/mcp`. */
  mcpUrl: string;
  /** The authorization server's issuer (the same origin). */
  issuer: string;
  /** Every request the fixture answered so far, in order. */
  records(): RecordedRequest[];
  /** Ends the fixture (SIGTERM, then SIGKILL if it lingers) and waits for it; safe to call twice. */
  stop(): Promise<void>;
}

/**
 * Starts the OAuth fixture with `flags` (see fixtures/oauth/oauth-flags.ts) and waits (generously,
 * against hangs only) for its `LISTENING <mcp-url> <issuer>` line. Its stdin is a pipe this process
 * holds: should the test runner die, the pipe closes and the fixture stops with it.
 */
export async function spawnOAuthServer(flags: readonly string[] = []): Promise<OAuthServerProcess> {
  const recordFile = join(tempDir("cat-code-oauth-"), "requests.jsonl");
  const argv = [BUN, OAUTH_SERVER, "--port", "0", "--record", recordFile, ...flags];
  const child: Subprocess<"pipe", "pipe", "pipe"> = Bun.spawn(argv, { stdin: "pipe", stdout: "pipe", stderr: "pipe" });
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    child.kill("SIGTERM");
    const lingering = setTimeout(() => child.kill("SIGKILL"), 5000);
    await child.exited;
    clearTimeout(lingering);
  };
  let seen = "";
  let onReady: (match: RegExpExecArray) => void = () => {};
  const ready = new Promise<RegExpExecArray>((resolve) => (onReady = resolve));
  const drain = async (stream: ReadableStream<Uint8Array>) => {
    const decoder = new TextDecoder();
    for await (const chunk of stream) {
      seen += decoder.decode(chunk, { stream: true });
      const match = /^LISTENING (\S+) (\S+)$/m.exec(seen);
      if (match) onReady(match);
    }
  };
  void drain(child.stdout);
  void drain(child.stderr);
  let timer: Timer | undefined;
  const failed = Promise.race([
    child.exited.then((code) => `exited with code ${code}`),
    new Promise<string>((resolve) => (timer = setTimeout(() => resolve("did not start in time"), 20_000))),
  ]);
  const outcome = await Promise.race([ready.then((match) => ({ match })), failed.then((why) => ({ why }))]);
  clearTimeout(timer);
  if ("why" in outcome) {
    child.kill("SIGKILL");
    await child.exited;
    throw new Error(`oauth-server ${flags.join(" ")} ${outcome.why}; its output:\n${seen}`);
  }
  const [, mcpUrl = "", issuer = ""] = outcome.match;
  const records = () =>
    existsSync(recordFile)
      ? readFileSync(recordFile, "utf8")
          .split("\n")
          .filter(Boolean)
          .map((line) => JSON.parse(line) as RecordedRequest)
      : [];
  return { mcpUrl, issuer, records, stop };
}
