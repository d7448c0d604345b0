/** `${VAR}` or `${VAR:-default}`, as Claude Code's `.mcp.json` writes them. */
const PATTERN = /\$\{([A-Za-z_][A-Za-z0-9_]*)(?::-([^}]*))?\}/g;

export class UnsetVariableError extends Error {
  constructor(readonly variable: string) {
    super(`environment variable ${variable} is not set (set it, or write \${${variable}:-default})`);
  }
}

/** Expands the variables of one string; an unset variable without a default throws. */
export function expandVariables(text: string, env: Record<string, string | undefined>): string {
  return text.replace(PATTERN, (_match, name: string, fallback: string | undefined) => {
    const value = env[name];
    if (value !== undefined && value !== "") return value;
    if (fallback !== undefined) return fallback;
    if (value !== undefined) return value;
    throw new UnsetVariableError(name);
  });
}
