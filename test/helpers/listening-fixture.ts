import type { Subprocess } from "bun";

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
 * Starts `argv` (an authorization server fixture) and waits, generously and against hangs only, for
 * its `LISTENING <mcp-url> <issuer>` line. Its stdin is a pipe this process holds: should the test
 * runner die, the pipe closes and the fixture stops with it. A fixture that exits or stays silent
 * fails with its output.
 */
export async function spawnListening(argv: string[], label: string): Promise<ListeningFixture> {
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
    throw new Error(`${label} ${outcome.why}; its output:\n${seen}`);
  }
  const [, mcpUrl = "", issuer = ""] = outcome.match;
  return { mcpUrl, issuer, output: () => seen, stop };
}
