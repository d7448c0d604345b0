/** What the pager needs of the line reader: to let go of the terminal while it runs. */
export interface TerminalOwner {
  suspend(): void;
  resume(): void;
}

/**
 * Shows `text` in the user's $PAGER (default `less`), run by the shell as git does, with the
 * terminal handed over while it runs. Resolves true when the pager ran and exited normally.
 */
export async function showInPager(text: string, terminal: TerminalOwner, env: Record<string, string | undefined> = process.env): Promise<boolean> {
  const command = env.PAGER?.trim() || "less";
  terminal.suspend();
  try {
    const child = Bun.spawn(["sh", "-c", command], { stdin: "pipe", stdout: "inherit", stderr: "inherit", env: env as Record<string, string> });
    // A pager quit early closes its end of the pipe; that is not an error.
    Promise.resolve(child.stdin.write(`${text}\n`)).catch(() => {});
    Promise.resolve(child.stdin.end()).catch(() => {});
    return (await child.exited) === 0;
  } catch {
    return false;
  } finally {
    terminal.resume();
  }
}
