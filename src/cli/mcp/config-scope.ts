import { projectConfigPath } from "../../mcp/config/configured-servers.ts";
import { ConfigError } from "../../config/config-error.ts";
import { userConfigPath } from "../../mcp/config/load-config.ts";
import { CliError } from "../../terminal/cli-error.ts";

/** The scopes a command can write: the user's file, or the project's `.mcp.json` in this folder. */
export type WritableScope = "user" | "project";

export const scopeArg = {
  scope: { type: "string", alias: "s", description: "user (~/.cat-code/mcp.json, the default) or project (./.mcp.json)", valueHint: "user|project" },
} as const;

export function parseScope(text: string | undefined, fallback: WritableScope = "user"): WritableScope {
  if (text === undefined) return fallback;
  if (text === "user" || text === "project") return text;
  throw CliError.usage(`--scope must be user or project, not '${text}'`);
}

export function configPathFor(scope: WritableScope): string {
  return scope === "user" ? userConfigPath() : projectConfigPath();
}

/** The user file may hold tokens and is nobody else's business; the project file is meant to be shared. */
export function fileModeFor(scope: WritableScope): number {
  return scope === "user" ? 0o600 : 0o644;
}

/** Runs a config write; its refusals (bad name, bad entry, duplicate, corrupt file) are usage errors. */
export async function writingConfig<T>(write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (error) {
    if (error instanceof ConfigError) throw CliError.usage(error.message);
    throw error;
  }
}
