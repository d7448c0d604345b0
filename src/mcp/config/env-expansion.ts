import { ConfigError } from "../../config/config-error.ts";

/** `${VAR}` or `${VAR:-default}`, as Claude Code's `.mcp.json` writes them. */
const PATTERN = /\$\{([A-Za-z_][A-Za-z0-9_]*)(?::-([^}]*))?\}/g;

/** Expands the variables of one string; an unset variable without a default is an invalid entry. */
export function expandVariables(text: string, env: Record<string, string | undefined>): string {
  return text.replace(PATTERN, (_match, name: string, fallback: string | undefined) => {
    const value = env[name];
    if (value !== undefined && value !== "") return value;
    if (fallback !== undefined) return fallback;
    if (value !== undefined) return value;
    throw new ConfigError(`environment variable ${name} is not set (set it, or write \${${name}:-default})`, "invalid-entry");
  });
}

/** The names of the variables a string refers to, in order. */
export function referencedVariables(text: string): string[] {
  return [...text.matchAll(PATTERN)].map((match) => match[1] as string);
}
