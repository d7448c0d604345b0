import { spawnSync } from "node:child_process";

/**
 * A real terminal for REPL tests: a detached tmux session on a private socket (never the user's
 * tmux server), driven with send-keys and read back with capture-pane, i.e. what the screen shows.
 * Needs the `tmux` package.
 */
export class TmuxTerminal {
  private readonly socket = `cat-code-test-${process.pid}-${Math.random().toString(36).slice(2, 8)}`;

  static available(): boolean {
    return spawnSync("tmux", ["-V"]).status === 0;
  }

  /** Starts `command` (argv) in a 120x40 terminal; its exit code is printed as `[exit N]`. */
  start(command: string[], options: { cwd: string; env: Record<string, string> }): void {
    const quoted = command.map((word) => `'${word.replace(/'/g, `'\\''`)}'`).join(" ");
    // Keep the pane alive after the program ends so the test can read its last screen.
    const script = `${quoted}; echo "[exit $?]"; sleep 600`;
    const envFlags = Object.entries(options.env).flatMap(([name, value]) => ["-e", `${name}=${value}`]);
    this.tmux(["-f", "/dev/null", "new-session", "-d", "-x", "120", "-y", "40", "-c", options.cwd, ...envFlags, "sh", "-c", script]);
  }

  send(...keys: string[]): void {
    this.tmux(["send-keys", "-t", "0", ...keys]);
  }

  /** Types text literally (no key-name lookup), then presses Enter. */
  type(text: string): void {
    this.tmux(["send-keys", "-t", "0", "-l", text]);
    this.send("Enter");
  }

  screen(): string {
    return this.tmux(["capture-pane", "-p", "-t", "0"])
      .split("\n")
      .map((line) => line.trimEnd())
      .join("\n")
      .trimEnd();
  }

  /** Polls the screen until `predicate` holds; fails with the screen in the message. */
  async waitFor(predicate: (screen: string) => boolean, what: string, timeoutMs = 10_000): Promise<string> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const screen = this.screen();
      if (predicate(screen)) return screen;
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}; the screen shows:\n${screen}`);
      await Bun.sleep(50);
    }
  }

  waitForText(text: string, timeoutMs?: number): Promise<string> {
    return this.waitFor((screen) => screen.includes(text), JSON.stringify(text), timeoutMs);
  }

  kill(): void {
    spawnSync("tmux", ["-L", this.socket, "kill-server"]);
  }

  private tmux(args: string[]): string {
    const result = spawnSync("tmux", ["-L", this.socket, ...args], { encoding: "utf8" });
    if (result.status !== 0) throw new Error(`tmux ${args[0]} failed: ${result.stderr}`);
    return result.stdout;
  }
}
