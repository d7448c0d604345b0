import { chmodSync, existsSync, mkdirSync, statSync } from "node:fs";
import { dirname, join } from "node:path";
import * as v from "valibot";
import { log } from "../../log.ts";
import { ConfigError } from "../../config/config-error.ts";
import { readConfigText } from "../../config/config-file-text.ts";
import { catCodeHome } from "../../config/app-home.ts";
import { issuePath } from "../../system/schema-issue.ts";
import { updateFile } from "../../config/locked-file.ts";
import { AuthError } from "./auth-error.ts";
import { type ClientRegistration, MAX_CLIENT_FIELD_CHARS } from "./client-registration.ts";
import { ensure, type Json, own, parseDocument, pruneServers, record, setOwn, Text } from "./credentials-document.ts";
import { mergeRegistration, RegistrationSchema, registrationsIn } from "./stored-registrations.ts";
// The token endpoint takes no larger token, so a larger one in the file was not written by cat-code.
import { MAX_TOKEN_CHARS } from "./token-endpoint.ts";

/** Tokens, registrations and wanted scopes of a few servers fit in kilobytes; a larger file is not ours. */
export const MAX_CREDENTIALS_BYTES = 1024 * 1024;
/** Owner only: the file holds bearer tokens and client secrets. */
const FILE_MODE = 0o600;
const FOLDER_MODE = 0o700;

export interface StoredTokens {
  accessToken: string;
  tokenType: string;
  refreshToken?: string;
  /** Epoch ms. */
  expiresAt?: number;
  scopes?: string[];
  issuer: string;
  /** The server URL the tokens were issued for. */
  resource: string;
  /** The client they were issued to: a refresh must come from it (absent in files of older cat-codes). */
  clientId?: string;
  savedAt: number;
}

/** A server entry by name, and the url it had: tokens are kept per url so they reach no other server. */
export interface CredentialKey {
  /** The entry's name. */
  server: string;
  /** The entry's url (after `${VAR}` expansion). */
  url: string;
}

/**
 * A file changed this recently may change again within its timestamps' granularity (a few ms on
 * Linux) without its size changing: it is read again at each use, as git treats a "racy" index.
 */
const SETTLED_AFTER_MS = 1000;

const Scopes = v.pipe(v.array(Text(1024)), v.maxLength(256));
const StoredTokensSchema = v.object({
  accessToken: Text(MAX_TOKEN_CHARS),
  tokenType: Text(64),
  refreshToken: v.optional(Text(MAX_TOKEN_CHARS)),
  // Within what a Date can hold, so it can be shown.
  expiresAt: v.optional(v.pipe(v.number(), v.finite(), v.minValue(0), v.maxValue(8.64e15))),
  scopes: v.optional(Scopes),
  issuer: Text(2048),
  resource: Text(2048),
  clientId: v.optional(Text(MAX_CLIENT_FIELD_CHARS)),
  savedAt: v.number(),
});

/**
 * `$CAT_CODE_HOME/credentials.json`: what signing in to MCP servers leaves behind, and the one source
 * of truth for it in every process (commands, the REPL, the keeper). Per server entry and url, its
 * tokens and the scopes a server asked for beyond them; per authorization server (issuer), the client
 * registrations it gave cat-code (stored-registrations.ts). Layout:
 * `{"version": 1, "servers": {"<name>": {"tokens": {"<url>": …}, "wantedScopes": {"<url>": [...]}}}, "registrations": {"<issuer>": …}}`.
 *
 * Read at each use, cheaply: the parsed file is kept while its inode, size and timestamps stay the
 * same. Written only under the lock, atomically (`updateFile`), so two cat-codes signing in at once
 * both keep their change; a refresh runs under the same lock (`renewTokens`). The file is always
 * mode 0600 (an older one with another mode is tightened) in a folder created 0700. A read never
 * fails: a missing, corrupt, oversized or unreadable file means "no tokens" (and a debug line); a
 * write to a corrupt one is refused with what to do. Neither messages nor log lines ever hold a
 * token, a secret, or the file's text.
 */
export class CredentialsStore {
  readonly path: string;
  private readonly now: () => number;
  private cached: { stamp: string; document: Json } | undefined;

  constructor(options: { env?: Record<string, string | undefined>; now?: () => number } = {}) {
    this.path = join(catCodeHome(options.env ?? process.env), "credentials.json");
    this.now = options.now ?? Date.now;
  }

  /** Tokens for this entry, only when stored for this exact url (a token is sent only to the server it was issued for). */
  tokens(key: CredentialKey): StoredTokens | undefined {
    return this.tokensIn(this.read(), key);
  }

  /**
   * Keeps `tokens` for this entry and url, replacing what was there. Scopes wanted for this url
   * that the new tokens carry are no longer wanted.
   */
  async saveTokens(key: CredentialKey, tokens: StoredTokens): Promise<void> {
    const checked = this.checkTokens(key, tokens);
    await this.update((document) => putTokens(document, key, checked));
  }

  /**
   * A refresh, under the store's lock: `renew` gets this entry's tokens as stored at this moment
   * (undefined: signed out meanwhile) and returns tokens to keep in their place, or undefined to
   * keep what is stored. Another process that wants to renew them waits for the lock, then sees
   * the result; so a rotated refresh token is never sent twice. `renew` may ask the network: it
   * must end well within STALE_LOCK_MS (file-lock.ts). What it throws is thrown, nothing written.
   * Resolves to the tokens stored afterwards.
   */
  async renewTokens(key: CredentialKey, renew: (stored: StoredTokens | undefined) => Promise<StoredTokens | undefined>): Promise<StoredTokens | undefined> {
    let after: StoredTokens | undefined;
    await this.update(async (document) => {
      after = this.tokensIn(document, key);
      const renewed = await renew(after);
      if (renewed === undefined) return;
      after = this.checkTokens(key, renewed);
      putTokens(document, key, after);
    });
    return after;
  }

  /** Removes and returns the entry's tokens (all urls, or only `onlyUrl`'s), for logout and revocation. */
  async forgetTokens(server: string, onlyUrl?: string): Promise<StoredTokens[]> {
    const forgotten: StoredTokens[] = [];
    await this.update((document) => {
      const tokens = record(own(record(own(record(own(document, "servers")), server)), "tokens"));
      for (const [url, stored] of Object.entries(tokens)) {
        if (onlyUrl !== undefined && url !== onlyUrl) continue;
        const parsed = v.safeParse(StoredTokensSchema, stored);
        if (parsed.success) forgotten.push(parsed.output);
        delete tokens[url];
      }
    });
    return forgotten;
  }

  /** Whether the entry has tokens stored for any url. */
  hasTokens(server: string): boolean {
    return Object.values(record(own(this.server(server), "tokens"))).some((stored) => v.is(StoredTokensSchema, stored));
  }

  /** Scopes a 403 insufficient_scope asked for, kept until the next sign-in asks for them. */
  wantedScopes(key: CredentialKey): string[] | undefined {
    const scopes = own(record(own(this.server(key.server), "wantedScopes")), key.url);
    if (scopes === undefined) return undefined;
    const parsed = this.valid(Scopes, scopes, `the wanted scopes of '${key.server}'`);
    return parsed && parsed.length > 0 ? parsed : undefined;
  }

  /** Keeps the scopes to ask for at the next sign-in for this url; an empty list forgets them. */
  async saveWantedScopes(key: CredentialKey, scopes: readonly string[]): Promise<void> {
    const checked = v.safeParse(Scopes, [...new Set(scopes)]);
    if (!checked.success) throw new AuthError(`the scopes wanted by '${key.server}' are not a list of scope names; nothing was saved`);
    await this.update((document) => {
      const wanted = ensure(ensure(ensure(document, "servers"), key.server), "wantedScopes");
      if (checked.output.length === 0) delete wanted[key.url];
      else setOwn(wanted, key.url, checked.output);
    });
  }

  /**
   * A client registration the authorization server gave cat-code: the one with `clientId` (the
   * client some tokens were issued to), or the one holding `redirectUri`, else the newest.
   */
  registration(issuer: string, match: { clientId?: string; redirectUri?: string } = {}): ClientRegistration | undefined {
    const all = this.registrations(issuer);
    if (match.clientId !== undefined) return all.find((registration) => registration.clientId === match.clientId);
    if (match.redirectUri !== undefined) return all.find((registration) => registration.redirectUris.includes(match.redirectUri!));
    return all.at(-1);
  }

  /** Every usable registration of the issuer, oldest first. */
  registrations(issuer: string): ClientRegistration[] {
    return registrationsIn(this.read(), issuer, (issues) => {
      log.debug(`${this.path}: a client registration cannot be used (${describeIssue(issues)}); ignored`);
    });
  }

  /** Adds a registration to its issuer's, keeping the others (see stored-registrations.ts). */
  async saveRegistration(registration: ClientRegistration): Promise<void> {
    const checked = v.safeParse(RegistrationSchema, registration);
    if (!checked.success) throw new AuthError(`the client registration for ${registration.issuer} is not in a form cat-code keeps; nothing was saved`);
    await this.update((document) => mergeRegistration(document, checked.output, this.now()));
  }

  private server(name: string): Json {
    return record(own(record(own(this.read(), "servers")), name));
  }

  private tokensIn(document: Json, key: CredentialKey): StoredTokens | undefined {
    const stored = own(record(own(record(own(record(own(document, "servers")), key.server)), "tokens")), key.url);
    return stored === undefined ? undefined : this.valid(StoredTokensSchema, stored, `the tokens of '${key.server}'`);
  }

  private checkTokens(key: CredentialKey, tokens: StoredTokens): StoredTokens {
    const checked = v.safeParse(StoredTokensSchema, tokens);
    if (!checked.success) throw new AuthError(`the tokens for '${key.server}' are not in a form cat-code keeps (${describeIssue(checked.issues)}); nothing was saved`);
    return checked.output;
  }

  /**
   * The file's document; an empty one (and a debug line) when it is missing or cannot be used. The
   * parsed document is kept while the file's stamp stays the same, once the file has settled (see
   * SETTLED_AFTER_MS): a warm request reads its token with one stat.
   */
  private read(): Json {
    let stamp = "missing";
    let settled = true;
    try {
      const stat = statSync(this.path, { bigint: true });
      if (Number(stat.mode & 0o777n) !== FILE_MODE) this.tighten();
      stamp = `${stat.ino}:${stat.size}:${stat.mtimeNs}:${stat.ctimeNs}`;
      settled = Date.now() - Number(stat.ctimeNs > stat.mtimeNs ? stat.ctimeNs : stat.mtimeNs) / 1e6 > SETTLED_AFTER_MS;
    } catch {}
    if (this.cached?.stamp === stamp) return this.cached.document;
    let document: Json;
    try {
      document = parseDocument(readConfigText(this.path, MAX_CREDENTIALS_BYTES)?.text, this.path);
    } catch (error) {
      if (!(error instanceof ConfigError || error instanceof AuthError)) throw error;
      log.debug(`${error.message}; no stored sign-in is used`);
      document = {};
    }
    this.cached = settled ? { stamp, document } : undefined;
    return document;
  }

  private valid<T>(schema: v.GenericSchema<unknown, T>, value: unknown, what: string): T | undefined {
    const parsed = v.safeParse(schema, value);
    if (parsed.success) return parsed.output;
    // The issue names the field, never the value: a value here may be a token.
    log.debug(`${this.path}: ${what} cannot be used (${describeIssue(parsed.issues)}); ignored`);
    return undefined;
  }

  /** Read-modify-write of the whole document under the lock; refuses a corrupt or oversized file. */
  private async update(change: (document: Json) => void | Promise<void>): Promise<void> {
    try {
      if (!existsSync(dirname(this.path))) mkdirSync(dirname(this.path), { recursive: true, mode: FOLDER_MODE });
      // Before the write: the temporary file takes the old file's mode, and must not be readable by others.
      this.tighten();
      await updateFile(
        this.path,
        async (current) => {
          if (current !== undefined && Buffer.byteLength(current) > MAX_CREDENTIALS_BYTES) {
            throw new AuthError(`${this.path} is larger than ${MAX_CREDENTIALS_BYTES / 1024} KB, which no file of cat-code's sign-ins is; move it away and sign in again; nothing was written`);
          }
          const document = parseDocument(current, this.path, "; nothing was written");
          const before = JSON.stringify(document);
          await change(document);
          pruneServers(document);
          if (JSON.stringify(document) === before) return current;
          setOwn(document, "version", 1);
          const text = `${JSON.stringify(document, null, 2)}\n`;
          if (Buffer.byteLength(text) > MAX_CREDENTIALS_BYTES) {
            throw new AuthError(`${this.path} would grow past ${MAX_CREDENTIALS_BYTES / 1024} KB; run cat-code mcp logout for servers you no longer use; nothing was written`);
          }
          return text;
        },
        { mode: FILE_MODE },
      );
    } catch (error) {
      if (error instanceof ConfigError) throw new AuthError(`cannot save sign-in: ${error.message}`, { cause: error });
      throw error;
    }
  }

  /** An existing file readable by others (written by hand, or by an older tool) is made owner-only. */
  private tighten(): void {
    let mode: number;
    try {
      mode = statSync(this.path).mode & 0o777;
    } catch {
      return;
    }
    if (mode === FILE_MODE) return;
    try {
      chmodSync(this.path, FILE_MODE);
    } catch (error) {
      log.debug(`cannot make ${this.path} readable by its owner only: ${(error as Error).message}`);
    }
  }
}

/** Stores `tokens` for the key; scopes wanted for this url that they carry are no longer wanted. */
function putTokens(document: Json, key: CredentialKey, tokens: StoredTokens): void {
  const server = ensure(ensure(document, "servers"), key.server);
  setOwn(ensure(server, "tokens"), key.url, tokens);
  const wanted = record(own(server, "wantedScopes"));
  const scopes = own(wanted, key.url);
  const granted = new Set(tokens.scopes ?? []);
  if (Array.isArray(scopes) && scopes.every((scope) => granted.has(scope as string))) delete wanted[key.url];
}

/** Where the stored document is wrong, never valibot's message: that could quote a token. */
function describeIssue(issues: readonly v.BaseIssue<unknown>[]): string {
  const path = issues[0] && issuePath(issues[0]);
  return path ? `"${path}" is missing or invalid` : "not an object";
}
