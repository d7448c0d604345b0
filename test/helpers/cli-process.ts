import { join } from "node:path";
import { BUN, REPO } from "./paths.ts";
import { catCode } from "./binary.ts";
import { waitFor } from "./wait-for.ts";

export { BUN, REPO };
/** The source entry point, for from-source smoke tests only: process tests spawn `catCode()` (test/helpers/binary.ts). */
export const MAIN = join(REPO, "src/cli/main.ts");

/** The environment for a child cat-code: no credentials of the machine's own, a temp home. */
export function childEnv(home: string, extra: Record<string, string> = {}): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [name, value] of Object.entries(process.env)) {
    if (value !== undefined && !name.startsWith("ANTHROPIC_") && !name.startsWith("CAT_CODE_")) env[name] = value;
  }
  // The test preload's switch survives: a child that runs `mcp call` starts no keeper that outlives the test.
  const noKeeper: Record<string, string> = process.env.CAT_CODE_NO_KEEPER === undefined ? {} : { CAT_CODE_NO_KEEPER: process.env.CAT_CODE_NO_KEEPER };
  return { ...env, ...noKeeper, CAT_CODE_HOME: home, NO_COLOR: "1", ...extra };
}

/**
 * cat-code with piped stdin, as a script would drive it: lines go in one at a time, and the test
 * waits for what comes out (stdout and stderr together, in arrival order).
 */
export class PipedCli {
  output = "";
  readonly exited: Promise<number>;
  private readonly child: Bun.Subprocess<"pipe", "pipe", "pipe">;

  constructor(args: string[], options: { cwd: string; env: Record<string, string> }) {
    this.child = Bun.spawn([...catCode(), ...args], { cwd: options.cwd, env: options.env, stdin: "pipe", stdout: "pipe", stderr: "pipe" });
    const pumped = Promise.all([this.pump(this.child.stdout), this.pump(this.child.stderr)]);
    // The exit code once all output is in, so a test can check the output right after.
    this.exited = Promise.all([this.child.exited, pumped]).then(([code]) => code);
  }

  send(line: string): void {
    this.child.stdin.write(`${line}\n`);
    void this.child.stdin.flush();
  }

  end(): void {
    void this.child.stdin.end();
  }

  /** Waits until the output after `from` contains `text`; returns the index just past it. */
  async waitFor(text: string, from = 0, timeoutMs = 10_000): Promise<number> {
    const found = () => {
      const at = this.output.indexOf(text, from);
      return at !== -1 && at + text.length;
    };
    return waitFor(found, () => `${JSON.stringify(text)}; output so far:\n${this.output}`, { timeoutMs, intervalMs: 20 });
  }

  /** Sends a signal, as `kill -INT` from another shell would (piped stdin has no Ctrl-C key). */
  signal(name: NodeJS.Signals): void {
    this.child.kill(name);
  }

  kill(): void {
    this.child.kill("SIGKILL");
  }

  private async pump(stream: ReadableStream<Uint8Array>): Promise<void> {
    const decoder = new TextDecoder();
    for await (const chunk of stream) this.output += decoder.decode(chunk, { stream: true });
  }
}

/**
 * Waits for the servers' startup line. Piped output prints such news only when it shows a prompt, so
 * each poll sends an empty line (which the REPL skips) to bring the next prompt.
 */
export async function waitForServers(cli: PipedCli): Promise<number> {
  const startupLine = /MCP: .* registered.*\n/;
  return waitFor(
    () => {
      const match = startupLine.exec(cli.output);
      if (match) return match.index + match[0].length;
      cli.send("");
      return false;
    },
    () => `the MCP startup line; output so far:\n${cli.output}`,
    { intervalMs: 50 },
  );
}
