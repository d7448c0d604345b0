import type { TerminalOwner } from "./pager.ts";

type Env = Record<string, string | undefined>;

/** The user's editor, as git finds it: $VISUAL, then $EDITOR; undefined when neither is set. */
export function editorCommand(env: Env = process.env): string | undefined {
  return env.VISUAL?.trim() || env.EDITOR?.trim() || undefined;
}

/**
 * Opens `path` in the user's editor with the terminal handed over (raw mode off, this process not
 * reading keys) and taken back when it exits. The command is run by the shell as git runs it
 * (`code --wait`, `vim -u NONE` work); the path goes as an argument, never into the command text.
 * Resolves the editor's exit code, or the reason it could not start.
 */
export async function editInTerminal(path: string, terminal: TerminalOwner, env: Env = process.env): Promise<{ code: number } | { error: string }> {
  const editor = editorCommand(env);
  if (!editor) return { error: "no editor is set: set $VISUAL or $EDITOR (e.g. export EDITOR=nano) and try again" };
  terminal.suspend();
  try {
    const child = Bun.spawn(["sh", "-c", `${editor} "$@"`, editor, path], { stdin: "inherit", stdout: "inherit", stderr: "inherit", env: env as Record<string, string> });
    return { code: await child.exited };
  } catch (error) {
    return { error: `the editor could not start: ${(error as Error).message}` };
  } finally {
    terminal.resume();
  }
}
