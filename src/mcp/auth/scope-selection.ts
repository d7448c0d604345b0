import * as v from "valibot";
import { log } from "../../log.ts";

/**
 * Which scopes a sign-in asks for: MCP authorization 2025-11-25, "Scope Selection Strategy" and
 * "Scope Challenge Handling" (step-up: the union of the old and the new, SEP-2350), with SEP-2207
 * (2026-07-28, "Refresh Tokens") for `offline_access`.
 */

/** The offline_access scope (OpenID Connect Core §11) asks an OIDC-flavoured server for a refresh token. */
export const OFFLINE_ACCESS = "offline_access";

/** RFC 6749 §3.3 scope-token: printable ASCII without space, `"` and `\`. */
const SCOPE_TOKEN = /^[\x21\x23-\x5B\x5D-\x7E]+$/;

/**
 * `scopes_supported` of a metadata document: a list of strings, of which only valid scope tokens
 * are kept (one with a space or a control character could not be sent, and would smuggle a second
 * scope into the request). An empty list reads as absent.
 */
export const ScopesSupported = v.pipe(
  v.nullish(v.array(v.string('every item of "scopes_supported" must be a string'), '"scopes_supported" must be a list of strings')),
  v.transform((scopes) => {
    const valid = scopes?.filter((scope) => SCOPE_TOKEN.test(scope)) ?? [];
    if (scopes && valid.length < scopes.length) log.debug(`ignored ${scopes.length - valid.length} scope(s) of scopes_supported that are not valid scope tokens`);
    return valid.length > 0 ? valid : undefined;
  }),
);

/**
 * The scopes to ask for (undefined: send no `scope`). Spec 2025-11-25 "scope selection strategy":
 * the challenge's scope; else the entry's configured scopes; else the PRM's scopes_supported; else none.
 * The configured scopes are added to a challenge's. `previous` (step-up) is unioned in. `offline_access`
 * is added when the AS lists it in scopes_supported (SEP-2207) and never otherwise. Order kept, no duplicates.
 *
 * `offline_access` is added only to a request that asks for some other scope: a request without
 * `scope` gets the server's default grant, and turning it into "offline_access" alone would ask for
 * less. Where the AS does not list it, it is dropped even when a challenge or the entry names it
 * (SEP-2207: a client MUST NOT request it then; a resource server should not name it at all).
 * `machine` (the client_credentials grant) never asks for it: there is no refresh token to get (the
 * grant itself runs again), and a server that limits the client's scopes refuses it as invalid_scope.
 */
export function chooseScopes(input: {
  challenge?: readonly string[];
  configured?: readonly string[];
  resourceScopes?: readonly string[];
  previous?: readonly string[];
  serverScopes?: readonly string[];
  machine?: boolean;
}): string[] | undefined {
  const challenge = tokens(input.challenge);
  const configured = tokens(input.configured);
  const base = challenge.length > 0 ? [...challenge, ...configured] : configured.length > 0 ? configured : tokens(input.resourceScopes);
  const offlineAllowed = !input.machine && (input.serverScopes?.includes(OFFLINE_ACCESS) ?? false);
  const chosen = [...new Set([...base, ...tokens(input.previous)])].filter((scope) => offlineAllowed || scope !== OFFLINE_ACCESS);
  if (chosen.length === 0) return undefined;
  if (offlineAllowed && !chosen.includes(OFFLINE_ACCESS)) chosen.push(OFFLINE_ACCESS);
  return chosen;
}

/** Scopes as single tokens: an entry "a b" (a configured string with spaces) counts as two. */
function tokens(scopes: readonly string[] | undefined): string[] {
  return (scopes ?? []).flatMap((scope) => scope.split(/\s+/)).filter((scope) => scope !== "");
}
