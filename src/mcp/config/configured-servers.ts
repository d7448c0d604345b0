import { join } from "node:path";
import { applyApprovals, readApprovals } from "./project-approval.ts";
import { readConfigFile, userConfigPath } from "./load-config.ts";
import type { ServerEntry } from "./server-config.ts";

/** Claude Code's project file name and format, so an existing project file works as it is. */
export const PROJECT_CONFIG_FILE = ".mcp.json";

export function projectConfigPath(cwd: string = process.cwd()): string {
  return join(cwd, PROJECT_CONFIG_FILE);
}

/**
 * The entries named in `disabledMcpServers` (a project's settings.json, written by `/mcp disable`)
 * marked disabled: never started, DISABLED in `/mcp` and `mcp list`, until `/mcp enable`.
 */
export function withDisabledServers(entries: ServerEntry[], names: readonly string[] | undefined): ServerEntry[] {
  if (!names?.length) return entries;
  return entries.map((entry) => (entry.ok && names.includes(entry.name) ? { ...entry, config: { ...entry.config, disabled: true } } : entry));
}

export interface ConfiguredServers {
  /** User entries, with project entries of the same name in their place, then the other project entries. */
  servers: ServerEntry[];
  /** User entries hidden by a project entry of the same name. */
  shadowed: ServerEntry[];
  /** One line per file problem; each names the file. */
  warnings: string[];
  userPath: string;
  projectPath: string;
}

/**
 * The servers of both scopes: `~/.cat-code/mcp.json` (or under CAT_CODE_HOME) and `.mcp.json` in
 * `cwd`. A project entry overrides a user entry of the same name. Project entries carry `trust`
 * until the user approves them (see project-approval.ts). Fail-open like `readConfigFile`.
 */
export function loadConfiguredServers(options: { cwd?: string; env?: Record<string, string | undefined> } = {}): ConfiguredServers {
  const env = options.env ?? process.env;
  const userPath = userConfigPath(env);
  const projectPath = projectConfigPath(options.cwd);
  const user = readConfigFile(userPath, "user", { env });
  const project = readConfigFile(projectPath, "project", { env });
  const { approvals, warnings: approvalWarnings } =
    project.servers.length > 0 ? readApprovals(env) : { approvals: { projects: {} }, warnings: [] };
  const projectEntries = applyApprovals(project.servers, approvals);
  const byName = new Map(projectEntries.map((entry) => [entry.name, entry]));
  const shadowed = user.servers.filter((entry) => byName.has(entry.name));
  const servers = [
    ...user.servers.map((entry) => byName.get(entry.name) ?? entry),
    ...projectEntries.filter((entry) => !user.servers.some((u) => u.name === entry.name)),
  ];
  return { servers, shadowed, warnings: [...user.warnings, ...project.warnings, ...approvalWarnings], userPath, projectPath };
}
