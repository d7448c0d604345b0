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

/** The request `signInFirst` sends without a token: any request shows a server's challenge. */
const PROBE = JSON.stringify({ jsonrpc: "2.0", id: 0, method: "ping" });

/** What the front end gives every HTTP server's authorizer: where tokens live and who may sign in. */
export interface AuthContext {
  store: CredentialsStore;
  /** Present only where a person may be sent to a browser (`mcp login`, `--login`); else NEEDS-AUTH. */
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
 * and what to do when the server refuses one. A 401 with a token refreshes it once (a token another
 * request renewed meanwhile is simply retried); a refresh that fails, or no token at all, signs in
 * when a person is there to, else fails as NEEDS-AUTH. A 403 `insufficient_scope` signs in again for
 * the union of the held and the asked scopes, at most MAX_STEP_UPS times. One refresh or sign-in runs
 * at a time; requests that meet a refusal meanwhile wait for it and retry with its token.
 */
export class ServerAuthorizer {
  private tokens: StoredTokens | undefined;
  private busy: Promise<void> | undefined;
  private stepUps = 0;
  /** Access tokens a refresh was made from: never twice from the same one. */
  private readonly refreshedFrom = new Set<string>();
  /** How this authorizer got each access token it holds or held: a refused fresh one is not renewed the same way. */
  private readonly obtained = new Map<string, "sign-in" | "refresh">();
  private readonly context: SignInContext;
  private readonly interaction: SignInInteraction | undefined;

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
    this.interaction = auth.interaction;
    this.tokens = auth.fresh ? undefined : auth.store.tokens(key);
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
    await this.once(() => this.signIn(challenge, undefined));
    return this.tokens?.issuer;
  }

  /** The header value for the next request (`Bearer …`), refreshed first when it is about to expire. */
  async authorization(): Promise<string | undefined> {
    await this.busy?.catch(() => {});
    const tokens = this.tokens;
    if (this.mayRefresh(tokens) && this.expiring(tokens)) {
      // A refresh that fails here leaves the old token: the server's refusal then takes the usual way.
      await this.once(() => this.refresh(tokens)).catch(() => {});
    }
    return this.tokens && `Bearer ${this.tokens.accessToken}`;
  }

  /** Whether a token is about to expire: within a minute, or half its lifetime when it is short. */
  private expiring(tokens: StoredTokens): boolean {
    if (tokens.expiresAt === undefined) return false;
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
    // Another request renewed the token meanwhile (a refresh, a sign-in): try again with it.
    if (this.tokens && sent !== `Bearer ${this.tokens.accessToken}`) return true;
    if (forScope) return this.stepUp(challenge!);
    const tokens = this.tokens;
    await this.once(async () => {
      if (this.mayRefresh(tokens)) {
        try {
          await this.refresh(tokens);
          return;
        } catch (error) {
          if (!(error instanceof AuthError) || !error.needsSignIn) throw error;
        }
      }
      if (tokens && this.obtained.get(tokens.accessToken) === "sign-in") {
        throw new AuthError(
          `'${this.context.serverName}' refused the token ${tokens.issuer} just issued for it: the server and its authorization server disagree; try again later or ask the server's operator`,
        );
      }
      await this.signIn(challenge, undefined);
    });
    return true;
  }

  /** A refresh token to use, and no refresh made from this token yet nor this token got by one (a loop). */
  private mayRefresh(tokens: StoredTokens | undefined): tokens is StoredTokens {
    return !!tokens?.refreshToken && !this.refreshedFrom.has(tokens.accessToken) && this.obtained.get(tokens.accessToken) !== "refresh";
  }

  /**
   * A 403 `insufficient_scope`: sign in again for the held scopes and the asked ones. Requests refused
   * together share the first one's sign-in (see `refused`) rather than each opening a browser.
   */
  private async stepUp(challenge: BearerChallenge): Promise<boolean> {
    const asked = challenge.scope ?? [];
    if (this.stepUps >= MAX_STEP_UPS) {
      throw new AuthError(
        `'${this.context.serverName}' still refuses for lack of scope (${asked.join(" ") || "unnamed"}) after ${MAX_STEP_UPS} sign-ins asking for it; the account may not be allowed that access`,
      );
    }
    this.stepUps++;
    await this.once(() => this.signIn(challenge, this.tokens?.scopes));
    return true;
  }

  /** A sign-in, or NEEDS-AUTH when it would need a browser and nobody is there. */
  private async signIn(challenge: BearerChallenge | undefined, previous: readonly string[] | undefined): Promise<void> {
    const { context } = this;
    if (!this.interaction && context.oauth?.grant !== "client_credentials") {
      const asked = challenge?.error === "insufficient_scope" ? challenge.scope : undefined;
      // Kept for the sign-in the user is told to run, so it asks for this scope too.
      if (asked?.length) await context.store.saveWantedScopes(context.key, [...(previous ?? []), ...asked]);
      throw needsSignIn(context, challenge, asked);
    }
    // The store forgets the wanted scopes once the new tokens hold them all.
    const tokens = await signIn(context, this.interaction, challenge, previous);
    this.tokens = tokens;
    this.obtained.set(tokens.accessToken, "sign-in");
  }

  /**
   * Trades the refresh token for new tokens at the authorization server that issued them. A server
   * that moved to another authorization server gets no refresh token of the old one: that would hand
   * a secret to another party, so it is a sign-in instead.
   */
  private async refresh(tokens: StoredTokens): Promise<void> {
    const { context } = this;
    this.refreshedFrom.add(tokens.accessToken);
    const { metadata, resource } = await findAuthorization(context.serverUrl, undefined, context.request);
    const client = metadata.issuer === tokens.issuer ? knownClient(context, metadata) : undefined;
    if (!client || !tokens.refreshToken) throw needsSignIn(context, undefined);
    const renewed = await refreshTokens({ metadata, client, refreshToken: tokens.refreshToken, resource, scopes: undefined, now: context.now }, context.request);
    this.tokens = {
      ...renewed,
      refreshToken: renewed.refreshToken ?? tokens.refreshToken,
      scopes: renewed.scopes ?? tokens.scopes,
      issuer: tokens.issuer,
      resource: context.serverUrl,
      savedAt: context.now(),
    };
    this.obtained.set(this.tokens.accessToken, "refresh");
    await context.store.saveTokens(context.key, this.tokens);
  }

  /** Runs one refresh or sign-in at a time; the others wait for it (see `busy`). */
  private once(work: () => Promise<void>): Promise<void> {
    const run = (this.busy ?? Promise.resolve()).catch(() => {}).then(work);
    this.busy = run;
    return run;
  }
}
