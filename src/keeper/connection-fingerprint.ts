import { entryFingerprint } from "../mcp/config/project-approval.ts";
import type { ServerRequest } from "./keeper-protocol.ts";

/**
 * What tells two warm connections apart: the sha256 of the canonical JSON of the resolved entry
 * (name, scope, config, trust), its launch context (env, cwd), the roots, whether the server is
 * told someone answers its questions (a server may list other tools then) and cat-code's version.
 * A connection is reused only while all of it is the same; any change gets a connection of its own.
 * An HTTP server is started by no one: its launch context changes nothing, so it is left out (else
 * every `cd`, which changes OLDPWD in the command's env, would open a new session).
 * Nor is the entry's `keepAlive`: how long a connection is kept is no reason for another server
 * process (`--keep-alive` writes it into the entry); the connection reused takes the latest.
 * It hashes secrets (env, headers): never log or show more than FINGERPRINT_SHOWN of it.
 */
export function connectionFingerprint(request: ServerRequest, roots: readonly string[], elicitation: boolean, version: string): string {
  const { entry, launch } = request;
  const { keepAlive: _kept, ...config } = entry.ok ? entry.config : {};
  const shape = {
    entry: { name: entry.name, scope: entry.scope, config: entry.ok ? config : entry.error, trust: entry.trust ?? null },
    launch: entry.ok && entry.config.type === "http" ? null : { env: launch.env, cwd: launch.cwd },
    roots,
    capabilities: { elicitation },
    version,
  };
  return entryFingerprint(shape).slice("sha256:".length);
}

/** How many hex digits of a fingerprint `mcp keeper status` shows. */
export const FINGERPRINT_SHOWN = 12;
