import * as v from "valibot";
import { type ClientRegistration, MAX_CLIENT_FIELD_CHARS } from "./client-registration.ts";
import { ensure, isRecord, type Json, own, record, setOwn, Text } from "./credentials-document.ts";

/**
 * The client registrations of one authorization server in `credentials.json`. Two sign-ins at once
 * to servers sharing an authorization server each register a client (each sign-in listens on its
 * own port, and a registration is only good for its redirect URI); the tokens of each are bound to
 * their client, so both registrations are kept, merged under the store's lock, never the last
 * writer's alone. Layout under `registrations["<issuer>"]`: one object (what older cat-codes wrote
 * and read) while there is one, a list of them, oldest first, once there are more.
 */

/** More than a few means sign-ins that kept failing after registering; the oldest unused ones go. */
export const MAX_REGISTRATIONS_PER_ISSUER = 8;

// Bounded as registration bounds them: what it takes can be stored.
export const RegistrationSchema = v.object({
  clientId: Text(MAX_CLIENT_FIELD_CHARS),
  clientSecret: v.optional(Text(MAX_CLIENT_FIELD_CHARS)),
  authMethod: v.picklist(["client_secret_basic", "client_secret_post", "none"]),
  redirectUris: v.pipe(v.array(Text(2048)), v.maxLength(32)),
  issuer: Text(2048),
});

/** What is stored for the issuer, as written: one object or a list, each item unchecked. */
function storedItems(document: Json, issuer: string): unknown[] {
  const stored = own(record(own(document, "registrations")), issuer);
  if (stored === undefined) return [];
  return Array.isArray(stored) ? stored : [stored];
}

/**
 * The usable registrations of `issuer`, oldest first; `onInvalid` hears of each one that cannot be
 * used (it names no value: one may be a client secret). One filed under another issuer is not handed out.
 */
export function registrationsIn(document: Json, issuer: string, onInvalid: (issues: v.BaseIssue<unknown>[]) => void = () => {}): ClientRegistration[] {
  const usable: ClientRegistration[] = [];
  for (const item of storedItems(document, issuer)) {
    const parsed = v.safeParse(RegistrationSchema, item);
    if (!parsed.success) onInvalid(parsed.issues);
    else if (parsed.output.issuer === issuer) usable.push(parsed.output);
  }
  return usable;
}

/**
 * Adds `registration` to its issuer's (replacing one with the same client id), keeping the others.
 * Past MAX_REGISTRATIONS_PER_ISSUER, the oldest that no stored tokens were issued to go; never the
 * one just added (its sign-in is about to use it), and never one that tokens name: dropping it would
 * leave those tokens no client to be refreshed or revoked with. So the list outgrows the bound only
 * by registrations that stored tokens need (at most one per token set, and the file is bounded), and
 * shrinks back at a later save once their tokens are gone.
 */
export function mergeRegistration(document: Json, registration: ClientRegistration, savedAt: number): void {
  const older = storedItems(document, registration.issuer).filter(
    (item) => v.is(RegistrationSchema, item) && item.issuer === registration.issuer && item.clientId !== registration.clientId,
  ) as Json[];
  const inUse = clientIdsInUse(document);
  // Oldest first: as many unused ones go as the bound asks for, and no others.
  let excess = older.length + 1 - MAX_REGISTRATIONS_PER_ISSUER;
  const kept = older.filter((item) => {
    if (excess <= 0 || inUse.has(item.clientId as string)) return true;
    excess--;
    return false;
  });
  kept.push({ ...registration, savedAt });
  setOwn(ensure(document, "registrations"), registration.issuer, kept.length === 1 ? kept[0] : kept);
}

/** The client ids stored tokens say they were issued to. */
function clientIdsInUse(document: Json): Set<string> {
  const ids = new Set<string>();
  for (const server of Object.values(record(own(document, "servers")))) {
    for (const tokens of Object.values(record(isRecord(server) ? own(server, "tokens") : undefined))) {
      const clientId = isRecord(tokens) ? tokens.clientId : undefined;
      if (typeof clientId === "string") ids.add(clientId);
    }
  }
  return ids;
}
