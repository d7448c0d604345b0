import * as v from "valibot";
import { AuthError } from "./auth-error.ts";

/**
 * The JSON document of `credentials.json` as the store handles it: parsed without ever quoting its
 * text, and read and changed through own properties only (a server named `__proto__` is a name).
 */
export type Json = Record<string, unknown>;

/** A text field of the document: a non-empty string of at most `max` characters (a longer one was not written by cat-code). */
export const Text = (max: number) => v.pipe(v.string(), v.nonEmpty(), v.maxLength(max));

/**
 * The document in `text` (none: an empty one). Its JSON error is not quoted: the parser's message
 * shows the text around the error, which may be a token.
 */
export function parseDocument(text: string | undefined, path: string, consequence = ""): Json {
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
export function pruneServers(document: Json): void {
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

export function isRecord(value: unknown): value is Json {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

export function record(value: unknown): Json {
  return isRecord(value) ? value : {};
}

/** `object[key]` only when it is the object's own: a server named `__proto__` or `constructor` is just a name. */
export function own(object: Json, key: string): unknown {
  return Object.hasOwn(object, key) ? object[key] : undefined;
}

/** Sets an own property, never a prototype (`object["__proto__"] = …` would replace it). */
export function setOwn(object: Json, key: string, value: unknown): void {
  Object.defineProperty(object, key, { value, writable: true, enumerable: true, configurable: true });
}

/** The record at `object[key]`, created (or replacing a non-record) when missing. */
export function ensure(object: Json, key: string): Json {
  const current = own(object, key);
  if (isRecord(current)) return current;
  const created: Json = {};
  setOwn(object, key, created);
  return created;
}
