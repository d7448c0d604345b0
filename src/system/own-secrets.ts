/** cat-code's own credentials: withheld from everything cat-code starts. */
const OWN_SECRETS = ["ANTHROPIC_API_KEY", "ANTHROPIC_AUTH_TOKEN"];

/**
 * The well-known secret variables of other tools, withheld from MCP servers unless an entry names
 * them in its `env`. A server is someone else's program that runs unwatched, and most need none of
 * these; the one that does says so in its entry (`"GITHUB_TOKEN": "${GITHUB_TOKEN}"`). Matched
 * without regard to case. The README lists the same rule.
 */
export const WELL_KNOWN_SECRETS: readonly RegExp[] = [
  /_API_?KEY$/i,
  /_TOKEN$/i,
  /_SECRET$/i,
  /_SECRET_?KEY$/i,
  /_ACCESS_?KEY$/i,
  /_PRIVATE_?KEY$/i,
  /_PASSWORD$/i,
  /^AWS_/i,
  /^OPENAI_/i,
  /^ANTHROPIC_/i,
  /^GITHUB_TOKEN$/i,
  /^GH_TOKEN$/i,
  /^GOOGLE_APPLICATION_CREDENTIALS$/i,
  /^PGPASSWORD$/i,
  /^MYSQL_PWD$/i,
];

/** cat-code's own credentials: never passed to a server, never read by a project's entry. */
export function isOwnSecret(name: string): boolean {
  return OWN_SECRETS.includes(name);
}

/**
 * The list as one pattern: each variable is tested once, and one regular expression is compiled
 * instead of fifteen. A warm `mcp call` tests every variable of its environment (serverRequest):
 * the list took ~1 ms of its CPU for 35 variables, this ~0.2 ms (issue 32).
 */
const ANY_WELL_KNOWN_SECRET = new RegExp(WELL_KNOWN_SECRETS.map((pattern) => `(?:${pattern.source})`).join("|"), "i");

export function isWellKnownSecret(name: string): boolean {
  return OWN_SECRETS.includes(name) || ANY_WELL_KNOWN_SECRET.test(name);
}

/**
 * Whether a value is a URL with a password in it (`DATABASE_URL=postgres://u:pw@db/app`): a
 * credential whatever the variable is called, so it is withheld from servers like the named ones.
 */
export function holdsUrlPassword(value: string): boolean {
  // Only text that starts like a URL is parsed: most values are not, and parsing each costs.
  if (!/^[A-Za-z][A-Za-z0-9+.-]*:\/\/[^/]*@/.test(value) || !URL.canParse(value)) return false;
  return new URL(value).password !== "";
}

type Env = Record<string, string | undefined>;

/**
 * The environment for a command the model wrote (the bash tool): ours, without our own
 * credentials, then `extra` on top. Other tools' credentials stay: such a command acts for the
 * user in their workspace (`gh`, `aws`, `npm publish`) and is shown whole before it runs.
 */
export function environmentWithoutOwnSecrets(extra: Record<string, string> = {}, parentEnv: Env = process.env): Record<string, string> {
  return { ...inherited(parentEnv, (name) => OWN_SECRETS.includes(name)), ...extra };
}

export interface ServerEnvironment {
  env: Record<string, string>;
  /** The variables of ours that were not passed on, by name, sorted. */
  withheld: string[];
}

/**
 * The environment for an MCP server: ours without our own credentials, without other tools'
 * well-known secrets (WELL_KNOWN_SECRETS) and without any variable whose value is a URL with a
 * password, then the entry's `env` on top, which is how an entry passes one on purpose.
 */
export function serverEnvironment(entryEnv: Record<string, string> = {}, parentEnv: Env = process.env): ServerEnvironment {
  const withheld: string[] = [];
  const env = inherited(parentEnv, (name, value) => {
    const secret = isWellKnownSecret(name) || holdsUrlPassword(value);
    if (secret && !Object.hasOwn(entryEnv, name)) withheld.push(name);
    return secret;
  });
  return { env: { ...env, ...entryEnv }, withheld: withheld.sort() };
}

function inherited(parentEnv: Env, leaveOut: (name: string, value: string) => boolean): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [name, value] of Object.entries(parentEnv)) {
    if (value !== undefined && !leaveOut(name, value)) env[name] = value;
  }
  return env;
}
