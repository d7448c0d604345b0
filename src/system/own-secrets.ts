/** cat-code's own credentials. */
const OWN_SECRETS = ["ANTHROPIC_API_KEY", "ANTHROPIC_AUTH_TOKEN"];

/**
 * The environment for something cat-code starts (an MCP server, a command the model wrote): ours,
 * without our own credentials, then `extra` on top, which is how an entry passes one on purpose.
 */
export function environmentWithoutOwnSecrets(
  extra: Record<string, string> = {},
  parentEnv: Record<string, string | undefined> = process.env,
): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(parentEnv)) {
    if (value !== undefined && !OWN_SECRETS.includes(key)) env[key] = value;
  }
  return { ...env, ...extra };
}
