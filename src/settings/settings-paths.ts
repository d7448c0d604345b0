import { join } from "node:path";
import { catCodeHome } from "../config/app-home.ts";

/**
 * Where the two settings.json files are, apart from load-settings.ts: a command that only needs to
 * know whether there are any (`mcp list`, for disabledMcpServers) need not load the settings'
 * schemas and the permission rules' syntax (issue 32).
 */
type Env = Record<string, string | undefined>;

export function userSettingsPath(env: Env = process.env): string {
  return join(catCodeHome(env), "settings.json");
}

export function projectSettingsPath(cwd: string): string {
  return join(cwd, ".cat-code", "settings.json");
}
