import { spawnAnnounced } from "../../scripts/announced-process.ts";

// Tests import it from here too (its home is in scripts, which do not import tests).
export { spawnAnnounced, type AnnouncedProcess } from "../../scripts/announced-process.ts";

/** A fixture process that announced `LISTENING <mcp-url> <issuer>` on stdout. */
export interface ListeningFixture {
  mcpUrl: string;
  issuer: string;
  /** Everything it printed so far (stdout and stderr), for a failing test's message. */
  output(): string;
  /** Ends it (SIGTERM, then SIGKILL if it lingers) and waits for it; safe to call twice. */
  stop(): Promise<void>;
}

/**
 * Starts `argv` (an authorization server fixture) and waits for its `LISTENING <mcp-url> <issuer>`
 * line. Its stdin is a pipe this process holds: should the test runner die, the pipe closes and
 * the fixture stops with it (fixtures/stop-with-parent.ts).
 */
export async function spawnListening(argv: string[], label: string): Promise<ListeningFixture> {
  const { child, match, output } = await spawnAnnounced(argv, { ready: /^LISTENING (\S+) (\S+)$/m, stdin: "pipe", label });
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    child.kill("SIGTERM");
    const lingering = setTimeout(() => child.kill("SIGKILL"), 5000);
    await child.exited;
    clearTimeout(lingering);
  };
  const [, mcpUrl = "", issuer = ""] = match;
  return { mcpUrl, issuer, output, stop };
}
