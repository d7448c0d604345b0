import { credentialForms, redactSecrets } from "../config/entry-secrets.ts";
import type { CallToolResult } from "../protocol.ts";
import { MAX_RESULT_DEPTH } from "../../system/json-depth.ts";
import { cutText } from "../../system/cut-text.ts";

/**
 * A server may quote back what it was sent: the `Authorization` or `X-Api-Key` it received, in an
 * error, a tool's error result, a log message or a progress message. The client masks them where
 * that text leaves it, so every front end (mcp call, mcp list, the REPL, the keeper's log events,
 * the model's note) gets it masked, rather than each front end remembering to. `secrets` are the
 * client's `secretValues` (forms from credentialForms).
 */

/**
 * What must not be shown of what one server says: every form of the entry's secrets and of the
 * credentials the transport sent, derived here from the raw values, once per use (a refresh may
 * have sent a new token since); and the masking of its errors, error results and words with them.
 */
export class ServerTextMask {
  /** The entry's raw secrets, read at the first use. */
  private entrySecrets: readonly string[] | undefined;
  /** secretValues' forms, and the credentials sent they were derived from. */
  private secretForms: { sent: readonly string[]; forms: string[] } | undefined;

  constructor(
    /** The entry's secrets, raw (see entrySecretValues). */
    private readonly entry: (() => readonly string[]) | undefined,
    /** The credentials the transport has sent so far. */
    private readonly sent: () => readonly string[],
  ) {}

  secretValues(): readonly string[] {
    // Asked for every log and progress message: the entry's values are read once (the entry does not
    // change under a client), and a server with no secrets at all (most stdio ones) costs nothing.
    this.entrySecrets ??= this.entry?.() ?? [];
    const sent = this.sent();
    if (sent.length === 0 && this.entrySecrets.length === 0) return [];
    // The forms are derived again only when the transport has sent a new credential (a refresh).
    const derived = this.secretForms;
    if (derived && derived.sent.length === sent.length && derived.sent.every((value, i) => value === sent[i])) return derived.forms;
    this.secretForms = { sent, forms: credentialForms([...sent, ...this.entrySecrets]) };
    return this.secretForms.forms;
  }

  /** Masks an error's message in place (maskError). */
  error(error: unknown): void {
    maskError(error, this.secretValues());
  }

  /**
   * A server's own words (a log line, a progress message) cut to `max`, with every secret form
   * masked. Only what can be shown is searched, plus the longest form, so no cut leaves a secret's
   * start showing and a 256 MB message costs no more than a short one.
   */
  shown(text: string, max: number): string {
    const secrets = this.secretValues();
    if (secrets.length === 0) return cutText(text, max);
    const reach = max + Math.max(...secrets.map((secret) => secret.length));
    return cutText(redactSecrets(cutText(text, reach), secrets), max);
  }

  /** A tool's result, masked if it is an error result (maskErrorResult). */
  result(result: CallToolResult): CallToolResult {
    return result.isError ? maskErrorResult(result, this.secretValues()) : result;
  }
}

/** What stands for a part of an error result nested deeper than any result is let in (parse-result.ts). */
const TOO_DEEP = "(nested too deep, not shown)";

/** Masks the secrets in an error's message, in place: the error keeps its class, code and fields. */
export function maskError(error: unknown, secrets: readonly string[]): void {
  if (error instanceof Error && secrets.length > 0) error.message = redactSecrets(error.message, secrets);
}

/**
 * A tool's error result with every string in it masked, wherever it sits: text blocks, an embedded
 * resource's text, `structuredContent`, `_meta`, object keys too (`mcp call --raw` prints it all).
 * Any other result is as it is (a tool's output is its data).
 */
export function maskErrorResult(result: CallToolResult, secrets: readonly string[]): CallToolResult {
  if (!result.isError || secrets.length === 0) return result;
  return maskedValue(result, secrets, MAX_RESULT_DEPTH) as CallToolResult;
}

/**
 * A copy of a JSON value with its strings masked. Bounded: it walks at most `levels` deep (a
 * result deeper than MAX_RESULT_DEPTH was refused before it got here), and each node once.
 */
function maskedValue(value: unknown, secrets: readonly string[], levels: number): unknown {
  if (typeof value === "string") return redactSecrets(value, secrets);
  if (typeof value !== "object" || value === null) return value;
  if (levels === 0) return TOO_DEEP;
  if (Array.isArray(value)) return value.map((item) => maskedValue(item, secrets, levels - 1));
  // fromEntries: a `__proto__` key stays a plain key, as JSON.parse made it.
  return Object.fromEntries(Object.entries(value).map(([key, item]) => [redactSecrets(key, secrets), maskedValue(item, secrets, levels - 1)]));
}
