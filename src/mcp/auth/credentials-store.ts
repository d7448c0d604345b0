import { chmodSync, existsSync, mkdirSync, statSync } from "node:fs";
import { dirname, join } from "node:path";
import * as v from "valibot";
import { log } from "../../log.ts";
import { ConfigError } from "../config/config-error.ts";
import { readConfigText } from "../config/config-file-text.ts";
import { catCodeHome } from "../config/load-config.ts";
import { updateFile } from "../config/locked-file.ts";
import { AuthError } from "./auth-error.ts";
import type { ClientRegistration } from "./client-registration.ts";

/** Tokens, registrations and wanted scopes of a few servers fit in kilobytes; a larger file is not ours. */
export const MAX_CREDENTIALS_BYTES = 1024 * 1024;
/** Owner only: the file holds bearer tokens and client secrets. */
const FILE_MODE = 0o600;
const FOLDER_MODE = 0o700;
/** The token endpoint refuses larger tokens (token-endpoint.ts); a larger one here was not written by us. */
const MAX_TOKEN_CHARS = 16 * 1024;

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
  savedAt: number;
}

/** A server entry by name, and the url it had: tokens are kept per url so they reach no other server. */
export interface CredentialKey {
  /** The entry's name. */
  server: string;
  /** The entry's url (after `${VAR}` expansion). */
  url: string;
}

const Text = (max: number) => v.pipe(v.string(), v.nonEmpty(), v.maxLength(max));
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
  savedAt: v.number(),
});
const RegistrationSchema = v.object({
  clientId: Text(2048),
  clientSecret: v.optional(Text(MAX_TOKEN_CHARS)),
  authMethod: v.picklist(["client_secret_basic", "client_secret_post", "none"]),
  redirectUris: v.pipe(v.array(Text(2048)), v.maxLength(32)),
  issuer: Text(2048),
});

type Json = Record<string, unknown>;

/**
 * `$CAT_CODE_HOME/credentials.json`: what signing in to MCP servers leaves behind. Per server entry
 * and url, its tokens and the scopes a server asked for beyond them; per authorization server
 * (issuer), the client registration it gave cat-code. Layout:
 * `{"version": 1, "servers": {"<name>": {"tokens": {"<url>": …}, "wantedScopes": {"<url>": [...]}}}, "registrations": {"<issuer>": …}}`.
 *
 * Written only under the lock, atomically (`updateFile`), so two cat-codes signing in at once both
 * keep their change; the file is always mode 0600 (an older one with another mode is tightened) in
 * a folder created 0700. A read never fails: a missing, corrupt, oversized or unreadable file means
 * "no tokens" (and a debug line); a write to a corrupt one is refused with what to do. Neither
 * messages nor log lines ever hold a token, a secret, or the file's text.
 */
export class CredentialsStore {
  readonly path: string;
  private readonly now: () => number;

  constructor(options: { env?: Record<string, string | undefined>; now?: () => number } = {}) {
    this.path = join(catCodeHome(options.env ?? process.env), "credentials.json");
    this.now = options.now ?? Date.now;
  }

  /** Tokens for this entry, only when stored for this exact url (a token is sent only to the server it was issued for). */
  tokens(key: CredentialKey): StoredTokens | undefined {
    const stored = own(record(own(this.server(key.server), "tokens")), key.url);
    return stored === undefined ? undefined : this.valid(StoredTokensSchema, stored, `the tokens of '${key.server}'`);
  }

  /**
   * Keeps `tokens` for this entry and url, replacing what was there. Scopes wanted for this url
   * that the new tokens carry are no longer wanted.
   */
  async saveTokens(key: CredentialKey, tokens: StoredTokens): Promise<void> {
    const checked = v.safeParse(StoredTokensSchema, tokens);
    if (!checked.success) throw new AuthError(`the tokens for '${key.server}' are not in a form cat-code keeps (${describeIssue(checked.issues)}); nothing was saved`);
    await this.update((document) => {
      const server = ensure(ensure(document, "servers"), key.server);
      setOwn(ensure(server, "tokens"), key.url, checked.output);
      const wanted = record(own(server, "wantedScopes"));
      const scopes = own(wanted, key.url);
      const granted = new Set(checked.output.scopes ?? []);
      if (Array.isArray(scopes) && scopes.every((scope) => granted.has(scope as string))) delete wanted[key.url];
    });
  }

  /** Removes and returns the entry's tokens (all urls), for logout and revocation. */
  async forgetTokens(server: string): Promise<StoredTokens[]> {
    const forgotten: StoredTokens[] = [];
    await this.update((document) => {
      const entry = record(own(record(own(document, "servers")), server));
      for (const stored of Object.values(record(own(entry, "tokens")))) {
        const parsed = v.safeParse(StoredTokensSchema, stored);
        if (parsed.success) forgotten.push(parsed.output);
      }
      delete entry.tokens;
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

  /** The client registration an authorization server gave cat-code, by its issuer. */
  registration(issuer: string): ClientRegistration | undefined {
    const stored = own(record(own(this.read(), "registrations")), issuer);
    if (stored === undefined) return undefined;
    const parsed = this.valid(RegistrationSchema, stored, "a client registration");
    return parsed?.issuer === issuer ? parsed : undefined;
  }

  async saveRegistration(registration: ClientRegistration): Promise<void> {
    const checked = v.safeParse(RegistrationSchema, registration);
    if (!checked.success) throw new AuthError(`the client registration for ${registration.issuer} is not in a form cat-code keeps; nothing was saved`);
    await this.update((document) => {
      setOwn(ensure(document, "registrations"), registration.issuer, { ...checked.output, savedAt: this.now() });
    });
  }

  private server(name: string): Json {
    return record(own(record(own(this.read(), "servers")), name));
  }

  /** The file's document; an empty one (and a debug line) when it is missing or cannot be used. */
  private read(): Json {
    try {
      this.tighten();
      return parseDocument(readConfigText(this.path, MAX_CREDENTIALS_BYTES)?.text, this.path);
    } catch (error) {
      if (!(error instanceof ConfigError || error instanceof AuthError)) throw error;
      log.debug(`${error.message}; no stored sign-in is used`);
      return {};
    }
  }

  private valid<T>(schema: v.GenericSchema<unknown, T>, value: unknown, what: string): T | undefined {
    const parsed = v.safeParse(schema, value);
    if (parsed.success) return parsed.output;
    // The issue names the field, never the value: a value here may be a token.
    log.debug(`${this.path}: ${what} cannot be used (${describeIssue(parsed.issues)}); ignored`);
    return undefined;
  }

  /** Read-modify-write of the whole document under the lock; refuses a corrupt or oversized file. */
  private async update(change: (document: Json) => void): Promise<void> {
    try {
      if (!existsSync(dirname(this.path))) mkdirSync(dirname(this.path), { recursive: true, mode: FOLDER_MODE });
      // Before the write: the temporary file takes the old file's mode, and must not be readable by others.
      this.tighten();
      await updateFile(
        this.path,
        (current) => {
          if (current !== undefined && Buffer.byteLength(current) > MAX_CREDENTIALS_BYTES) {
            throw new AuthError(`${this.path} is larger than ${MAX_CREDENTIALS_BYTES / 1024} KB, which no file of cat-code's sign-ins is; move it away and sign in again; nothing was written`);
          }
          const document = parseDocument(current, this.path, "; nothing was written");
          const before = JSON.stringify(document);
          change(document);
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

/**
 * The document in `text` (none: an empty one). Its JSON error is not quoted: the parser's message
 * shows the text around the error, which may be a token.
 */
function parseDocument(text: string | undefined, path: string, consequence = ""): Json {
  if (text === undefined || text.trim() === "") return {};
  let document: unknown;
  try {
    document = JSON.parse(text);
  } catch {
    throw new AuthError(`${path} is not valid JSON; move it away (or delete it) and sign in again${consequence}`);
  }
  if (!isRecord(document) || !["servers", "registrations"].every((field) => document[field] === undefined || isRecord(document[field]))) {
    throw new AuthError(`${path} is not a file of cat-code's sign-ins; move it away (or delete it) and sign in again${consequence}`);
  }
  return document;
}

/** Drops what a change left empty: a server's record without tokens or wanted scopes, and then its maps. */
function pruneServers(document: Json): void {
  const servers = own(document, "servers");
  if (!isRecord(servers)) return;
  for (const [name, entry] of Object.entries(servers)) {
    if (!isRecord(entry)) continue;
    for (const field of ["tokens", "wantedScopes"]) {
      if (isRecord(entry[field]) && Object.keys(entry[field]).length === 0) delete entry[field];
    }
    if (Object.keys(entry).length === 0) delete servers[name];
  }
}

function describeIssue(issues: readonly v.BaseIssue<unknown>[]): string {
  const path = issues[0]?.path?.map((item) => String(item.key)).join(".");
  return path ? `"${path}" is missing or invalid` : "not an object";
}

function isRecord(value: unknown): value is Json {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function record(value: unknown): Json {
  return isRecord(value) ? value : {};
}

/** `object[key]` only when it is the object's own: a server named `__proto__` or `constructor` is just a name. */
function own(object: Json, key: string): unknown {
  return Object.hasOwn(object, key) ? object[key] : undefined;
}

/** Sets an own property, never a prototype (`object["__proto__"] = …` would replace it). */
function setOwn(object: Json, key: string, value: unknown): void {
  Object.defineProperty(object, key, { value, writable: true, enumerable: true, configurable: true });
}

/** The record at `object[key]`, created (or replacing a non-record) when missing. */
function ensure(object: Json, key: string): Json {
  const current = own(object, key);
  if (isRecord(current)) return current;
  const created: Json = {};
  setOwn(object, key, created);
  return created;
}
