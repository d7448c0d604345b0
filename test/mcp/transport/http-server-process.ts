import type { Subprocess } from "bun";

/** A server child process listening on 127.0.0.1, found by a line it prints once it listens. */
export interface ServerProcess {
  url: string;
  child: Subprocess<"ignore", "pipe", "pipe">;
  /** Kills the child and waits for it; safe to call twice. */
  stop(): Promise<void>;
}

/** How the HTTP fixtures of the 2026-07-28 work say they listen (`listening http://127.0.0.1:<port>/mcp`). */
export const LISTENING_ON_MCP = { ready: /listening http:\/\/127\.0\.0\.1:(\d+)\/mcp/, path: "/mcp" };

/**
 * Spawns `argv` and waits (generously, against hangs only) until stdout or stderr shows `ready`,
 * whose first group is the port. Output keeps being drained so a chatty server never blocks.
 */
export async function spawnServer(
  argv: string[],
  options: { ready: RegExp; path: string; env?: Record<string, string>; cwd?: string; timeoutMs?: number },
): Promise<ServerProcess> {
  const child = Bun.spawn(argv, {
    cwd: options.cwd,
    env: { ...process.env, ...options.env } as Record<string, string>,
    stdin: "ignore",
    stdout: "pipe",
    stderr: "pipe",
  });
  const stop = async () => {
    child.kill("SIGKILL");
    await child.exited;
  };
  let seen = "";
  let onPort: (port: string) => void = () => {};
  const port = new Promise<string>((resolve) => (onPort = resolve));
  const drain = async (stream: ReadableStream<Uint8Array>) => {
    const decoder = new TextDecoder();
    for await (const chunk of stream) {
      seen += decoder.decode(chunk, { stream: true });
      const match = options.ready.exec(seen);
      if (match?.[1]) onPort(match[1]);
    }
  };
  void drain(child.stdout);
  void drain(child.stderr);
  let timer: Timer | undefined;
  const failed = Promise.race([
    child.exited.then((code) => `exited with code ${code}`),
    new Promise<string>((resolve) => (timer = setTimeout(() => resolve("did not start in time"), options.timeoutMs ?? 20_000))),
  ]);
  const outcome = await Promise.race([port.then((p) => ({ port: p })), failed.then((why) => ({ why }))]);
  clearTimeout(timer);
  if ("why" in outcome) {
    await stop();
    throw new Error(`${argv.join(" ")} ${outcome.why}; its output:\n${seen}`);
  }
  return { url: `http://127.0.0.1:${outcome.port}${options.path}`, child, stop };
}

/** A port the OS just handed out and that is free again (for servers that cannot listen on 0). */
export function freePort(): number {
  const listener = Bun.listen({ hostname: "127.0.0.1", port: 0, socket: { data() {} } });
  const { port } = listener;
  listener.stop(true);
  return port;
}
