import { isPlainObject } from "../../system/plain-object.ts";
import { referencedVariables } from "./env-expansion.ts";
import type { ServerEntry } from "./server-config.ts";

/** Shorter values are too likely to be ordinary words to mask wherever they appear. */
const MIN_SECRET_LENGTH = 4;

/**
 * The values an entry's `${VAR}`s expand to in its url, headers and `oauth.clientSecret`: the
 * secrets sent to an HTTP server or its authorization server. Text about the server that may quote them (an error that names the expanded url, say)
 * goes through `redactSecrets` before it is shown. (A stdio server's env is its own to print:
 * its stderr is shown as it wrote it.)
 */
export function entrySecretValues(entry: ServerEntry, env: Record<string, string | undefined> = process.env): string[] {
  const raw = isPlainObject(entry.raw) ? entry.raw : {};
  const written = [raw.url, ...Object.values(isPlainObject(raw.headers) ? raw.headers : {}), isPlainObject(raw.oauth) ? raw.oauth.clientSecret : undefined];
  const values = new Set<string>();
  for (const text of written) {
    if (typeof text !== "string") continue;
    for (const name of referencedVariables(text)) {
      const value = env[name];
      if (value === undefined || value.length < MIN_SECRET_LENGTH) continue;
      values.add(value);
      // A value in a url may be quoted percent-encoded.
      values.add(encodeURIComponent(value));
    }
  }
  return [...values].sort((a, b) => b.length - a.length);
}

/** `text` with every one of `secrets` replaced by `***`. */
export function redactSecrets(text: string, secrets: string[]): string {
  return secrets.reduce((masked, secret) => masked.replaceAll(secret, "***"), text);
}
