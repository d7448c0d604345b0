import { holdsUrlPassword, isOwnSecret, isWellKnownSecret } from "../../system/own-secrets.ts";
import { isPlainObject } from "../../system/plain-object.ts";
import { referencedVariables } from "./env-expansion.ts";

/**
 * Which `${VAR}`s an entry reads and where each value goes. A project's `.mcp.json` can arrive with
 * a cloned repository, and every `${VAR}` in it is a value of the user's environment sent somewhere
 * the project chose: a header to the server, a client secret to an authorization server, an
 * argument to a process. The approval question names each one with its destination, so approving
 * an entry is approving what it sends.
 */
export interface VariableUse {
  name: string;
  /** The field it is written in, as a path: `headers.Authorization`, `oauth.scopes[0]`, `args[2]`. */
  field: string;
  /** Where its value goes, in words: an origin, an authorization server, the server process. */
  destination: string;
}

type Env = Record<string, string | undefined>;

/** Every `${VAR}` of a raw entry (before expansion) with its field and destination, in the entry's order. */
export function variableUses(raw: unknown): VariableUse[] {
  if (!isPlainObject(raw)) return [];
  const uses: VariableUse[] = [];
  const read = (value: unknown, field: string, destination: string) => {
    if (typeof value !== "string") return;
    for (const name of referencedVariables(value)) uses.push({ name, field, destination });
  };
  const readMap = (value: unknown, field: string, destination: string) => {
    if (isPlainObject(value)) for (const [key, item] of Object.entries(value)) read(item, `${field}.${key}`, destination);
  };
  const serverProcess = "the server process";
  read(raw.command, "command", serverProcess);
  if (Array.isArray(raw.args)) raw.args.forEach((arg, i) => read(arg, `args[${i}]`, serverProcess));
  readMap(raw.env, "env", serverProcess);
  read(raw.cwd, "cwd", serverProcess);
  const server = serverOrigin(raw.url);
  read(raw.url, "url", server);
  readMap(raw.headers, "headers", server);
  if (isPlainObject(raw.oauth)) {
    // The entry does not say where its authorization server is: the server names it at sign-in.
    const authorizationServer = server === "the server" ? "the server's authorization server" : `the authorization server ${server} names`;
    for (const [key, item] of Object.entries(raw.oauth)) {
      if (Array.isArray(item)) item.forEach((each, i) => read(each, `oauth.${key}[${i}]`, authorizationServer));
      else read(item, `oauth.${key}`, authorizationServer);
    }
  }
  return uses;
}

/**
 * One line per variable and destination, ready for the approval question:
 * `$TOKEN: sends it to https://api.example.com (headers.Authorization)`.
 */
export function variableLines(uses: VariableUse[]): string[] {
  const grouped = new Map<string, string[]>();
  for (const use of uses) {
    const key = `${use.name}\u0000${use.destination}`;
    grouped.set(key, [...(grouped.get(key) ?? []), use.field]);
  }
  return [...grouped].map(([key, fields]) => {
    const [name, destination] = key.split("\u0000") as [string, string];
    const verb = destination === "the server process" ? "passes it to" : "sends it to";
    return `$${name}: ${verb} ${destination} (${[...new Set(fields)].join(", ")})`;
  });
}

/**
 * Warnings about the variables a project entry reads: cat-code's own credentials (the entry is
 * refused, see load-config), and the secrets withheld from servers (by name, or a value that is a
 * URL with a password) that this entry would send on.
 */
export function variableWarnings(uses: VariableUse[], env: Env = process.env): string[] {
  const warnings: string[] = [];
  const seen = new Set<string>();
  for (const { name, destination } of uses) {
    const key = `${name}\u0000${destination}`;
    if (seen.has(key)) continue;
    seen.add(key);
    if (isOwnSecret(name)) warnings.push(ownSecretRefusal(name));
    else if (isWellKnownSecret(name) || holdsUrlPassword(env[name] ?? "")) {
      warnings.push(`$${name} is a secret withheld from servers unless an entry names it: approving sends it to ${destination}`);
    }
  }
  return [...new Set(warnings)];
}

/** Why a project entry may not read one of cat-code's own credentials, and what to do. */
export function ownSecretRefusal(name: string): string {
  return `$${name} is cat-code's own credential: a project's .mcp.json may not read it, so the entry is refused; remove it from the entry (an entry in your own mcp.json may name it)`;
}

/** `https://host:port` of an entry's url as written, or "the server" when it is not a URL yet (a `${VAR}` in its host). */
function serverOrigin(url: unknown): string {
  if (typeof url !== "string" || !URL.canParse(url)) return "the server";
  const origin = new URL(url).origin;
  return origin === "null" || origin.includes("${") || origin.includes("%7B") ? "the server" : origin;
}
