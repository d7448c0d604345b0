import type { Clock } from "../../system/clock.ts";
import type { OAuthConfig } from "../config/server-config.ts";
import { AuthError } from "./auth-error.ts";
import { type AuthRequestOptions, authRequest } from "./auth-fetch.ts";
import type { CredentialsStore, StoredTokens } from "./credentials-store.ts";
import { findAuthorization, knownClient, needsSignIn, type SignInContext, type SignInInteraction, signIn } from "./sign-in.ts";
import { refreshTokens } from "./token-endpoint.ts";
import { type BearerChallenge, bearerChallenge } from "./www-authenticate.ts";

/** Sign-ins for more scope one authorizer makes before it gives up (the spec's retry limit). */
export const MAX_STEP_UPS = 2;
/** A token this close to its expiry is refreshed before it is sent: a request must not race the clock. */
const EXPIRY_MARGIN_MS = 60_000;
/**
 * The token request of a refresh holds the store's lock: it must end well within the time after
 * which another process takes a held lock as left over (STALE_LOCK_MS, 10 s), and within the 10 s a
 * waiting process gives one holder.
 */
export const LOCKED_REFRESH_TIMEOUT_MS = 8_000;
/**
 * Access tokens an authorizer remembers (how it got them, whether it refreshed from them): the store
 * holds the newest one, so only the last few can come back; a keeper's warm connection lives for
 * weeks and refreshes every hour, and each token may be 16 KB.
 */
const REMEMBERED_TOKENS = 4;

/** The request `signInFirst` sends without a token: any request shows a server's challenge. */
const PROBE = JSON.stringify({ jsonrpc: "2.0", id: 0, method: "ping" });

/** What the front end gives every HTTP server's authorizer: where tokens live and who may sign in. */
export interface AuthContext {
  store: CredentialsStore;
  /**
   * Present only where a person may be sent to a browser (`mcp login`, `--login`, the reconnect of
   * `/mcp login`); else NEEDS-AUTH. Read at each sign-in, so a holder may take it back (lendInteraction).
   */
  interaction?: SignInInteraction;
  /** Sign in afresh (`mcp login`): the stored tokens are not sent, so the first refusal signs in. */
  fresh?: boolean;
  /** The command that signs in to a server, for messages (default `cat-code mcp login <name>`). */
  loginHint?: (serverName: string) => string;
  request?: AuthRequestOptions;
  /** Wall-clock time for token expiry (ms since the epoch). */
  now?: () => number;
  clock?: Clock;
}

export interface AuthorizedServer {
  name: string;
  url: string;
  oauth?: OAuthConfig;
}

/**
 * OAuth for one HTTP server, as its transport sees it: the `Authorization` header for each request,
 * and what to do when the server refuses one. It holds no tokens: each request takes the ones in
 * the credentials store at that moment, so a refresh by another process, `mcp login` (a step-up
 * too) and `mcp logout` count from the very next request of a warm connection. A refresh runs
 * under the store's lock after reading it again (`refresh`). A 401 with a token refreshes it once
 * (a token renewed meanwhile, here or elsewhere, is simply retried); a refresh that fails, or no
 * token at all, signs in when a person is there to, else fails as NEEDS-AUTH. A 403
 * `insufficient_scope` signs in again for the union of the held and the asked scopes, at most
 * MAX_STEP_UPS times. One refresh or sign-in runs at a time; requests that meet a refusal
 * meanwhile wait for it and retry with its token.
 */
export class ServerAuthorizer {
  private busy: Promise<void> | undefined;
  private stepUps = 0;
  /** `mcp login`: the stored tokens are not sent until this authorizer has signed in itself. */
  private ignoreStored: boolean;
  /**
   * The last REMEMBERED_TOKENS access tokens this authorizer got or refreshed from, oldest first: a
   * refresh is never made twice from the same one, and a refused fresh one is not renewed the way it came.
   */
  private readonly remembered = new Map<string, { got?: "sign-in" | "refresh"; refreshedFrom?: true }>();
  /** Why the tokens with this access token cannot be refreshed, for the NEEDS-AUTH that follows. */
  private unrefreshable: { accessToken: string; because: string } | undefined;
  private readonly context: SignInContext;
  private readonly auth: AuthContext;

  constructor(server: AuthorizedServer, auth: AuthContext) {
    const key = { server: server.name, url: server.url };
    this.context = {
      serverName: server.name,
      serverUrl: server.url,
      loginHint: auth.loginHint?.(server.name) ?? `cat-code mcp login ${server.name}`,
      oauth: server.oauth,
      store: auth.store,
      key,
      request: auth.request ?? {},
      now: auth.now ?? Date.now,
      clock: auth.clock,
    };
    this.auth = auth;
    this.ignoreStored = auth.fresh === true;
  }

  /** Whoever may sign in now: read at each use, as the context's holder may have taken it back. */
  private get interaction(): SignInInteraction | undefined {
    return this.auth.interaction;
  }

  /**
   * Signs in before any MCP request (`mcp login`): a request without a token shows whether the server
   * wants OAuth and which scope (its challenge); then the flow runs, with no request timeout running
   * while the person is in the browser. Returns the issuer, or undefined when the server did not
   * ask for a sign-in and the entry has no `oauth` block.
   */
  async signInFirst(): Promise<string | undefined> {
    const { context } = this;
    const probe = await authRequest(
      context.serverUrl,
      { method: "POST", headers: { "Content-Type": "application/json", Accept: "application/json, text/event-stream" }, body: PROBE },
      context.request,
    );
    const challenge = bearerChallenge(probe.headers);
    if (probe.status !== 401 && !context.oauth) return undefined;
    let issuer: string | undefined;
    await this.once(async () => {
      issuer = (await this.signIn(challenge, undefined)).issuer;
    });
    return issuer;
  }

  /** The header value for the next request (`Bearer …`), refreshed first when it is about to expire. */
  async authorization(): Promise<string | undefined> {
    await this.busy?.catch(() => {});
    let tokens = this.current();
    if (this.mayRefresh(tokens) && this.expiring(tokens)) {
      const basis = tokens;
      // A refresh that fails here leaves the old token: the server's refusal then takes the usual way.
      await this.once(() => this.refresh(basis)).catch(() => {});
      tokens = this.current();
    }
    return tokens && bearer(tokens);
  }

  /** The tokens to send now: the store's, read at each use (see the class comment). */
  private current(): StoredTokens | undefined {
    return this.ignoreStored ? undefined : this.context.store.tokens(this.context.key);
  }

  /** Whether the stored token is not the one a refused request carried: renewed meanwhile, here or by another process. */
  private renewedSince(sent: string | undefined): boolean {
    const tokens = this.current();
    return tokens !== undefined && sent !== bearer(tokens);
  }

  /**
   * Whether a token is about to expire: within a minute, or half its lifetime when it is short. One
   * that came already expired is sent as it is (the server's refusal decides): refreshing it before
   * each request would only bring another such one each time.
   */
  private expiring(tokens: StoredTokens): boolean {
    if (tokens.expiresAt === undefined || tokens.expiresAt <= tokens.savedAt) return false;
    const margin = Math.min(EXPIRY_MARGIN_MS, Math.max(0, tokens.expiresAt - tokens.savedAt) / 2);
    return tokens.expiresAt - margin <= this.context.now();
  }

  /**
   * The server refused a request that carried `sent` (the header value, or undefined). Resolves true
   * when the request should be sent again (there is a new token), false when the refusal is not
   * OAuth's to answer (no Bearer challenge, a 403 for another reason); throws AuthError otherwise.
   */
  async refused(status: number, headers: Headers, sent: string | undefined): Promise<boolean> {
    const challenge = bearerChallenge(headers);
    if (!challenge && !this.context.oauth) return false;
    const forScope = status === 403 && challenge?.error === "insufficient_scope";
    if (status !== 401 && !forScope) return false;
    await this.busy?.catch(() => {});
    if (this.renewedSince(sent)) return true;
    if (forScope) return this.stepUp(challenge!, sent);
    await this.once(async () => {
      if (this.renewedSince(sent)) return;
      // None stored (signed out, or never signed in): a sign-in, never a refresh with forgotten tokens.
      const tokens = this.current();
      // A token a refresh just brought and the server refused is not refreshed again (a loop): a sign-in is.
      if (this.mayRefresh(tokens) && this.remembered.get(tokens.accessToken)?.got !== "refresh") {
        try {
          await this.refresh(tokens);
          return;
        } catch (error) {
          if (!(error instanceof AuthError) || !error.needsSignIn) throw error;
        }
      }
      if (tokens && this.remembered.get(tokens.accessToken)?.got === "sign-in") {
        throw new AuthError(
          `'${this.context.serverName}' refused the token ${tokens.issuer} just issued for it: the server and its authorization server disagree; try again later or ask the server's operator`,
        );
      }
      await this.signIn(challenge, undefined);
    });
    return true;
  }

  /** A refresh token to use, and no refresh made from this access token yet. */
  private mayRefresh(tokens: StoredTokens | undefined): tokens is StoredTokens {
    return !!tokens?.refreshToken && !this.remembered.get(tokens.accessToken)?.refreshedFrom;
  }

  /** Notes what became of an access token, as the newest remembered; the oldest beyond REMEMBERED_TOKENS are forgotten. */
  private remember(accessToken: string, fact: { got: "sign-in" | "refresh" } | { refreshedFrom: true }): void {
    const entry = { ...this.remembered.get(accessToken), ...fact };
    this.remembered.delete(accessToken);
    this.remembered.set(accessToken, entry);
    for (const oldest of this.remembered.keys()) {
      if (this.remembered.size <= REMEMBERED_TOKENS) break;
      this.remembered.delete(oldest);
    }
  }

  /**
   * A 403 `insufficient_scope`: sign in again for the held scopes and the asked ones. Requests refused
   * together share the first one's sign-in (see `refused`) rather than each opening a browser. Only
   * sign-ins count towards MAX_STEP_UPS: without a person each refusal is NEEDS-AUTH, and the
   * `mcp login` the user then runs is seen at the next request.
   */
  private async stepUp(challenge: BearerChallenge, sent: string | undefined): Promise<boolean> {
    const asked = challenge.scope ?? [];
    await this.once(async () => {
      if (this.renewedSince(sent)) return;
      if (this.canSignIn()) {
        if (this.stepUps >= MAX_STEP_UPS) {
          throw new AuthError(
            `'${this.context.serverName}' still refuses for lack of scope (${asked.join(" ") || "unnamed"}) after ${MAX_STEP_UPS} sign-ins asking for it; the account may not be allowed that access`,
          );
        }
        this.stepUps++;
      }
      await this.signIn(challenge, this.current()?.scopes);
    });
    return true;
  }

  private canSignIn(): boolean {
    return this.interaction !== undefined || this.context.oauth?.grant === "client_credentials";
  }

  /** A sign-in, or NEEDS-AUTH when it would need a browser and nobody is there. */
  private async signIn(challenge: BearerChallenge | undefined, previous: readonly string[] | undefined): Promise<StoredTokens> {
    const { context } = this;
    if (!this.canSignIn()) {
      const asked = challenge?.error === "insufficient_scope" ? challenge.scope : undefined;
      // Kept for the sign-in the user is told to run, so it asks for this scope too.
      if (asked?.length) await context.store.saveWantedScopes(context.key, [...(previous ?? []), ...asked]);
      const held = this.current()?.accessToken;
      throw needsSignIn(context, challenge, asked, held !== undefined && this.unrefreshable?.accessToken === held ? this.unrefreshable.because : undefined);
    }
    // The store forgets the wanted scopes once the new tokens hold them all.
    const tokens = await signIn(context, this.interaction, challenge, previous);
    this.ignoreStored = false;
    this.remember(tokens.accessToken, { got: "sign-in" });
    return tokens;
  }

  /**
   * Trades the refresh token for new tokens at the authorization server that issued them, with the
   * client they were issued to. Under the store's lock, after reading it again: tokens another
   * process (or a sign-in) stored meanwhile are used as they are, so a rotated refresh token is
   * never sent twice; tokens forgotten meanwhile (`mcp logout`) are never refreshed. A server that
   * moved to another authorization server gets no refresh token of the old one: that would hand a
   * secret to another party, so it is a sign-in instead.
   */
  private async refresh(basis: StoredTokens): Promise<void> {
    const { context } = this;
    // Queued behind another refresh or a sign-in: tokens renewed meanwhile are used as they are, with no discovery.
    const stored = this.current();
    if (!stored) throw needsSignIn(context, undefined);
    if (stored.accessToken !== basis.accessToken) return;
    this.remember(basis.accessToken, { refreshedFrom: true });
    // Found before the lock is taken: only the token request waits under it.
    const { metadata, resource } = await findAuthorization(context.serverUrl, undefined, context.request);
    const client = metadata.issuer === basis.issuer ? knownClient(context, metadata, basis.clientId) : undefined;
    if (!client && metadata.issuer === basis.issuer && basis.clientId !== undefined) {
      // Never another client in its place: the user hears why a sign-in is needed (tokens whose registration an older cat-code overwrote).
      const because = `cat-code no longer has the client its tokens were issued to: no registration in ${context.store.path} nor the entry's oauth settings name it`;
      this.unrefreshable = { accessToken: basis.accessToken, because };
      throw needsSignIn(context, undefined, undefined, because);
    }
    const refreshToken = basis.refreshToken;
    if (!client || !refreshToken) throw needsSignIn(context, undefined);
    const request = { ...context.request, timeoutMs: Math.min(context.request.timeoutMs ?? LOCKED_REFRESH_TIMEOUT_MS, LOCKED_REFRESH_TIMEOUT_MS) };
    await context.store.renewTokens(context.key, async (stored) => {
      if (!stored) throw needsSignIn(context, undefined);
      if (stored.accessToken !== basis.accessToken || stored.refreshToken !== refreshToken) return undefined;
      const renewed = await refreshTokens({ metadata, client, refreshToken, resource, scopes: undefined, now: context.now }, request);
      const tokens: StoredTokens = {
        ...renewed,
        refreshToken: renewed.refreshToken ?? refreshToken,
        scopes: renewed.scopes ?? basis.scopes,
        issuer: basis.issuer,
        resource: context.serverUrl,
        ...(basis.clientId !== undefined ? { clientId: basis.clientId } : {}),
        savedAt: context.now(),
      };
      this.remember(tokens.accessToken, { got: "refresh" });
      return tokens;
    });
  }

  /** Runs one refresh or sign-in at a time; the others wait for it (see `busy`). */
  private once(work: () => Promise<void>): Promise<void> {
    const run = (this.busy ?? Promise.resolve()).catch(() => {}).then(work);
    this.busy = run;
    return run;
  }
}

function bearer(tokens: StoredTokens): string {
  return `Bearer ${tokens.accessToken}`;
}
