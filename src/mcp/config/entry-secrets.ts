import { isPlainObject } from "../../system/plain-object.ts";
import { referencedVariables } from "./env-expansion.ts";
import type { ServerEntry } from "./server-config.ts";

/** Shorter values are too likely to be ordinary words to mask wherever they appear. */
const MIN_SECRET_LENGTH = 4;

/**
 * The secrets an entry sends, as written: the values its `${VAR}`s expand to in its url, headers
 * and `oauth.clientSecret`, every header value it sends, and its client secret. Raw values: the
 * forms they may be quoted back in are derived once, by whoever masks (`credentialForms`), together
 * with the credentials the transport sent (the client's `secretValues`). Text a server or a lower
 * layer wrote about it (an error that names the expanded url, a server that echoes the
 * `Authorization` it received) goes through `redactSecrets` with those forms before it is shown.
 * (A stdio server's env is its own to print: its stderr is shown as it wrote it.)
 */
export function entrySecretValues(entry: ServerEntry, env: Record<string, string | undefined> = process.env): string[] {
  const raw = isPlainObject(entry.raw) ? entry.raw : {};
  const written = [raw.url, ...Object.values(isPlainObject(raw.headers) ? raw.headers : {}), isPlainObject(raw.oauth) ? raw.oauth.clientSecret : undefined];
  const values: string[] = [];
  for (const text of written) {
    if (typeof text !== "string") continue;
    for (const name of referencedVariables(text)) {
      const value = env[name];
      if (value !== undefined) values.push(value);
    }
  }
  if (entry.ok && entry.config.type === "http") {
    values.push(...Object.values(entry.config.headers));
    if (entry.config.oauth?.clientSecret !== undefined) values.push(entry.config.oauth.clientSecret);
  }
  return values;
}

/**
 * Each raw value (never a form: that would add double-encoded ones) as it may be quoted back: whole, the credentials after an auth scheme
 * (`Bearer <token>` → `<token>`), and percent-encoded (a value in a url). Too short ones are left
 * out; the longest come first, so a value is masked before a part of it.
 */
export function credentialForms(values: Iterable<string>): string[] {
  const forms = new Set<string>();
  for (const value of values) {
    const credentials = /^[A-Za-z][A-Za-z0-9!#$%&'*+.^_`|~-]*\s+(\S.*)$/.exec(value)?.[1];
    for (const form of [value, credentials]) {
      if (form === undefined || form.length < MIN_SECRET_LENGTH) continue;
      forms.add(form);
      forms.add(encodeURIComponent(form));
    }
  }
  return [...forms].sort((a, b) => b.length - a.length);
}

/** `text` with every one of `secrets` replaced by `***` (longest first: see credentialForms). */
export function redactSecrets(text: string, secrets: readonly string[]): string {
  return secrets.reduce((masked, secret) => masked.replaceAll(secret, "***"), text);
}
