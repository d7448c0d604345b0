import { entryFingerprint } from "../mcp/config/project-approval.ts";
import type { ServerRequest } from "./keeper-protocol.ts";

/**
 * Variables that shells, terminals and multiplexers change on their own, per `cd`, tab, pane or
 * prompt: no server's work depends on them, so they take no part in matching (see
 * connectionFingerprint). They still reach the server: the one started for the first command keeps
 * the environment it was started with. Anything a server could reasonably use stays matched, even
 * when a terminal sets it (`TERM`, `TMUX`, `SSH_AUTH_SOCK`, `VSCODE_GIT_IPC_HANDLE`, `GPG_TTY`).
 */
export const SHELL_CHANGED_VARIABLES: ReadonlySet<string> = new Set([
  // The shell's own: the last folder, the current one (matched on its own, as the launch cwd),
  // nesting depth, the last command's argument, the window size, the prompt.
  "OLDPWD",
  "PWD",
  "SHLVL",
  "_",
  "COLUMNS",
  "LINES",
  "PS1",
  "PS2",
  "PS3",
  "PS4",
  "PROMPT_COMMAND",
  "STARSHIP_SESSION_KEY",
  // A terminal's window, tab or pane.
  "TERM_SESSION_ID", // macOS Terminal, iTerm2
  "ITERM_SESSION_ID",
  "SHELL_SESSION_ID", // macOS Terminal's session restore, Konsole
  "WINDOWID", // X11 terminals (xterm, urxvt, Konsole, Alacritty, kitty)
  "ALACRITTY_WINDOW_ID",
  "KITTY_WINDOW_ID",
  "WEZTERM_PANE",
  "WT_SESSION", // Windows Terminal
  "GNOME_TERMINAL_SCREEN",
  "KONSOLE_DBUS_SESSION",
  "TERMINATOR_UUID",
  "TILIX_ID",
  "VSCODE_NONCE", // VS Code's shell integration, per terminal
  // A multiplexer's pane or window (the server's socket, TMUX, stays matched).
  "TMUX_PANE",
  "STY", // GNU screen's session
  "WINDOW", // GNU screen's window number
  "ZELLIJ_PANE_ID",
  // An SSH login's own port and tty (SSH_AUTH_SOCK, which git over SSH uses, stays matched).
  "SSH_CLIENT",
  "SSH_CONNECTION",
  "SSH_TTY",
]);

/**
 * What tells two warm connections apart: the sha256 of the canonical JSON of the resolved entry
 * (name, scope, config, trust), its launch context (env without SHELL_CHANGED_VARIABLES, cwd), the
 * roots, whether the server is told someone answers its questions (a server may list other tools
 * then) and cat-code's version. A connection is reused only while all of it is the same; any change
 * gets a connection of its own. An HTTP server is started by no one: its launch context changes
 * nothing, so it is left out.
 * Nor is the entry's `keepAlive`: how long a connection is kept is no reason for another server
 * process (`--keep-alive` writes it into the entry); the connection reused takes the latest.
 * It hashes secrets (env, headers): never log or show more than FINGERPRINT_SHOWN of it.
 */
export function connectionFingerprint(request: ServerRequest, roots: readonly string[], elicitation: boolean, version: string): string {
  const { entry, launch } = request;
  const shape = {
    entry: entryShape(request),
    launch: entry.ok && entry.config.type === "http" ? null : { env: matchedEnv(launch.env), cwd: launch.cwd },
    roots,
    capabilities: { elicitation },
    version,
  };
  return entryFingerprint(shape).slice("sha256:".length);
}

/**
 * The entry alone, as connectionFingerprint hashes it: the keeper holds at most a few connections
 * per entry (its launch contexts, roots and capabilities), whatever they are.
 */
export function entryKey(request: ServerRequest): string {
  return entryFingerprint(entryShape(request)).slice("sha256:".length);
}

function entryShape({ entry }: ServerRequest): object {
  const { keepAlive: _kept, ...config } = entry.ok ? entry.config : {};
  return { name: entry.name, scope: entry.scope, config: entry.ok ? config : entry.error, trust: entry.trust ?? null };
}

function matchedEnv(env: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(env).filter(([name]) => !SHELL_CHANGED_VARIABLES.has(name)));
}

/** How many hex digits of a fingerprint `mcp keeper status` shows. */
export const FINGERPRINT_SHOWN = 12;
