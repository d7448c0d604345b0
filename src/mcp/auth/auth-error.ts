/**
 * Why signing in to a server failed, in words a user can act on. Every message names the server or
 * authorization server by its redacted URL and never holds a token, a code, a client secret or a
 * verifier. `needsSignIn` marks the failures that one interactive sign-in (`cat-code mcp login`)
 * would cure: no tokens, a refresh the authorization server refused, a token without the scope a
 * request needs. The HTTP layer turns such an error into the server's NEEDS-AUTH state; every other
 * one (a metadata document that lies about its resource, an `iss` that does not match, a token
 * endpoint that is down) is a plain failure with its reason.
 */
export class AuthError extends Error {
  override readonly name = "AuthError";
  readonly needsSignIn: boolean;
  /** The OAuth error code the authorization server sent (`invalid_grant`, `access_denied`…), if any. */
  readonly oauthError: string | undefined;
  /** Scopes a 403 `insufficient_scope` asked for, so the next sign-in asks for them too. */
  readonly wantedScopes: readonly string[] | undefined;

  constructor(message: string, options: { needsSignIn?: boolean; oauthError?: string; wantedScopes?: readonly string[]; cause?: unknown } = {}) {
    super(message, { cause: options.cause });
    this.needsSignIn = options.needsSignIn ?? false;
    this.oauthError = options.oauthError;
    this.wantedScopes = options.wantedScopes;
  }
}

/** A sign-in the person called off (Ctrl-C, Esc): worded the same wherever it was waiting. */
export function signInCancelled(): AuthError {
  return new AuthError("the sign-in was cancelled");
}
