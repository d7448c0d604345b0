/**
 * The WWW-Authenticate header of a 401 or 403 (MCP authorization 2025-11-25, "Protected Resource
 * Metadata Discovery Requirements" and "Scope Selection Strategy"; RFC 9728 §5.1 for
 * `resource_metadata`, RFC 6750 §3 for `scope` and `error`), read with the syntax of RFC 9110
 * §11.6.1. The header comes from the server, so it is hostile: the parser reads at most 8 KB, never
 * throws, and always moves forward, so no input can make it loop.
 */

export interface AuthChallenge {
  /** Lower case. */
  scheme: string;
  /** Names lower case, values unquoted (escapes undone). The first of a repeated name wins. */
  params: Record<string, string>;
  token68?: string;
}

export interface BearerChallenge {
  resourceMetadata?: string;
  /** Split on spaces; absent when the challenge names none. */
  scope?: string[];
  error?: string;
  errorDescription?: string;
}

/** A real header is a few hundred bytes; more is not a challenge worth reading. */
export const MAX_WWW_AUTHENTICATE_CHARS = 8 * 1024;

/**
 * Every challenge of one or more WWW-Authenticate values (RFC 9110 §11.6.1 syntax: quoted strings
 * with escapes, commas inside quotes, several challenges in one value, any case). Never throws;
 * reads at most 8 KB.
 */
export function parseWwwAuthenticate(values: string | readonly string[]): AuthChallenge[] {
  const list = typeof values === "string" ? [values] : values;
  const challenges: AuthChallenge[] = [];
  let budget = MAX_WWW_AUTHENTICATE_CHARS;
  for (const value of list) {
    if (budget <= 0) break;
    if (typeof value !== "string") continue;
    const text = value.slice(0, budget);
    budget -= text.length;
    // Each value is parsed on its own, so a broken one (an unclosed quote) cannot swallow the next.
    challenges.push(...new ChallengeReader(text).readAll());
  }
  return challenges;
}

/** The Bearer challenge of a response's headers (all WWW-Authenticate values), or undefined. */
export function bearerChallenge(headers: Headers): BearerChallenge | undefined {
  // Headers joins repeated WWW-Authenticate fields with ", ", which is the list syntax they share.
  const value = headers.get("www-authenticate");
  if (value === null) return undefined;
  const challenge = parseWwwAuthenticate(value).find((c) => c.scheme === "bearer");
  if (!challenge) return undefined;
  const { resource_metadata: resourceMetadata, scope, error, error_description: errorDescription } = challenge.params;
  const scopes = scope?.split(" ").filter((s) => s !== "");
  return {
    ...(resourceMetadata ? { resourceMetadata } : {}),
    ...(scopes?.length ? { scope: scopes } : {}),
    ...(error ? { error } : {}),
    ...(errorDescription ? { errorDescription } : {}),
  };
}

/** RFC 9110 §5.6.2 tchar. */
const TCHAR = /[!#$%&'*+\-.^_`|~0-9A-Za-z]/;
/** RFC 9110 §11.2 token68 (before its trailing "="). */
const TOKEN68_CHAR = /[A-Za-z0-9\-._~+/]/;

/** A cursor over one header value. Every method either consumes input or leaves `at` unchanged and says so. */
class ChallengeReader {
  private at = 0;

  constructor(private readonly text: string) {}

  readAll(): AuthChallenge[] {
    const challenges: AuthChallenge[] = [];
    for (;;) {
      this.skip(/[ \t,]/);
      if (this.at >= this.text.length) return challenges;
      const scheme = this.token();
      if (scheme === "") {
        // Not a challenge: drop everything up to the next element of the list.
        this.skipPastComma();
        continue;
      }
      const challenge: AuthChallenge = { scheme: scheme.toLowerCase(), params: Object.create(null) };
      challenges.push(challenge);
      this.skip(/[ \t]/);
      const token68 = this.token68();
      if (token68 !== undefined) challenge.token68 = token68;
      else this.readParams(challenge.params);
    }
  }

  /** `name = value` pairs up to the end or to a list element that starts the next challenge. */
  private readParams(params: Record<string, string>): void {
    for (;;) {
      this.skip(/[ \t]/);
      const start = this.at;
      const name = this.token();
      if (name === "") return this.skipPastComma();
      this.skip(/[ \t]/);
      if (this.text[this.at] !== "=") {
        // A token without "=" is the scheme of the next challenge: leave it for readAll.
        this.at = start;
        return;
      }
      this.at++;
      this.skip(/[ \t]/);
      const value = this.text[this.at] === '"' ? this.quotedString() : this.bareValue();
      const key = name.toLowerCase();
      if (!(key in params)) params[key] = value;
      this.skip(/[ \t]/);
      if (this.at >= this.text.length) return;
      if (this.text[this.at] !== ",") return this.skipPastComma();
      this.skip(/[ \t,]/);
    }
  }

  /** A token68 credential when the challenge has one (it stands alone up to a comma or the end), else undefined and nothing consumed. */
  private token68(): string | undefined {
    const start = this.at;
    this.skip(TOKEN68_CHAR);
    if (this.at === start) return undefined;
    this.skip(/=/);
    const end = this.at;
    this.skip(/[ \t]/);
    if (this.at >= this.text.length || this.text[this.at] === ",") return this.text.slice(start, end);
    this.at = start;
    return undefined;
  }

  /**
   * An unquoted value. The grammar allows only a token, but servers send unquoted URLs
   * (`resource_metadata=https://…`): read up to the next space, comma or quote instead of cutting at ":".
   */
  private bareValue(): string {
    const start = this.at;
    this.skip(/[^ \t,"]/);
    return this.text.slice(start, this.at);
  }

  private token(): string {
    const start = this.at;
    this.skip(TCHAR);
    return this.text.slice(start, this.at);
  }

  /** RFC 9110 §5.6.4: `\` takes the next character as it is; an unclosed string runs to the end. */
  private quotedString(): string {
    let value = "";
    this.at++;
    while (this.at < this.text.length) {
      const char = this.text[this.at++] as string;
      if (char === '"') return value;
      if (char === "\\" && this.at < this.text.length) value += this.text[this.at++];
      else value += char;
    }
    return value;
  }

  /** Recovery from input that fits no rule: on to the next list element, quotes respected. */
  private skipPastComma(): void {
    while (this.at < this.text.length && this.text[this.at] !== ",") {
      if (this.text[this.at] === '"') this.quotedString();
      else this.at++;
    }
  }

  private skip(chars: RegExp): void {
    while (this.at < this.text.length && chars.test(this.text[this.at] as string)) this.at++;
  }
}
