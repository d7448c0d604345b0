import type { ServerConfig } from "../config/server-config.ts";
import { HttpTransport } from "./http-transport.ts";
import { StdioTransport } from "./stdio-transport.ts";
import type { Transport } from "./transport.ts";

/** cat-code's own secrets: a server sees them only when its entry passes them in `env`. */
const WITHHELD_VARIABLES = ["ANTHROPIC_API_KEY", "ANTHROPIC_AUTH_TOKEN"];

/** The environment of a stdio server: ours without our secrets, then the entry's `env` on top. */
export function serverEnvironment(
  entryEnv: Record<string, string>,
  parentEnv: Record<string, string | undefined> = process.env,
): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(parentEnv)) {
    if (value !== undefined && !WITHHELD_VARIABLES.includes(key)) env[key] = value;
  }
  return { ...env, ...entryEnv };
}

export function createTransport(config: ServerConfig): Transport {
  switch (config.type) {
    case "stdio":
      return new StdioTransport({
        command: config.command,
        args: config.args,
        env: serverEnvironment(config.env),
        cwd: config.cwd,
      });
    case "http":
      return new HttpTransport({ url: config.url, headers: config.headers });
  }
}
