import type { Subprocess } from "bun";

/** A child process that said, on stdout or stderr, that it listens. */
export interface AnnouncedProcess<In extends "pipe" | "ignore"> {
  child: Subprocess<In, "pipe", "pipe">;
  /** The `ready` pattern's match in its output. */
  match: RegExpExecArray;
  /** Everything it printed so far (stdout and stderr), for a failing test's message. */
  output(): string;
}

/**
 * Spawns `argv` and waits (generously, against hangs only) until stdout or stderr shows `ready`.
 * Output keeps being drained so a chatty server never blocks. A child that exits first or stays
 * silent is killed, and the error names `label` and quotes its output. Here, not in test/helpers:
 * the scripts start fixtures and the binary this way too, and scripts do not import tests.
 */
export async function spawnAnnounced<In extends "pipe" | "ignore">(
  argv: string[],
  options: { ready: RegExp; stdin: In; label: string; env?: Record<string, string>; cwd?: string; timeoutMs?: number },
): Promise<AnnouncedProcess<In>> {
  const child = Bun.spawn(argv, {
    cwd: options.cwd,
    env: { ...process.env, ...options.env } as Record<string, string>,
    stdin: options.stdin,
    stdout: "pipe",
    stderr: "pipe",
  }) as Subprocess<In, "pipe", "pipe">;
  let seen = "";
  let onReady: (match: RegExpExecArray) => void = () => {};
  const ready = new Promise<RegExpExecArray>((resolve) => (onReady = resolve));
  const drain = async (stream: ReadableStream<Uint8Array>) => {
    const decoder = new TextDecoder();
    for await (const chunk of stream) {
      seen += decoder.decode(chunk, { stream: true });
      const match = options.ready.exec(seen);
      if (match) onReady(match);
    }
  };
  void drain(child.stdout);
  void drain(child.stderr);
  let timer: Timer | undefined;
  const failed = Promise.race([
    child.exited.then((code) => `exited with code ${code}`),
    new Promise<string>((resolve) => (timer = setTimeout(() => resolve("did not start in time"), options.timeoutMs ?? 20_000))),
  ]);
  const outcome = await Promise.race([ready.then((match) => ({ match })), failed.then((why) => ({ why }))]);
  clearTimeout(timer);
  if ("why" in outcome) {
    child.kill("SIGKILL");
    await child.exited;
    throw new Error(`${options.label} ${outcome.why}; its output:\n${seen}`);
  }
  return { child, match: outcome.match, output: () => seen };
}
