import { ConfigError } from "../config/config-error.ts";
import { readProperty, setProperty } from "../config/json-edit.ts";
import { updateFile } from "../config/locked-file.ts";

type List = "allow" | "deny" | "ask";

/**
 * Adds a rule to `permissions.<list>` of a settings.json, creating the file (and its folder) when
 * missing. Written as mcp.json is: under the file's lock, atomically, every other byte kept
 * (comments and keys cat-code does not know included). A rule already there writes nothing.
 */
export async function addPermissionRule(path: string, list: List, rule: string, options: { mode?: number } = {}): Promise<void> {
  await updateFile(
    path,
    (current) => {
      const rules = currentRules(current, path, list);
      if (rules.includes(rule)) return undefined;
      return guarded(path, () => setProperty(current ?? "", ["permissions", list], [...rules, rule], { jsonc: true }));
    },
    options,
  );
}

/** Removes a rule from `permissions.<list>`; false (and nothing written) when it is not there. */
export async function removePermissionRule(path: string, list: List, rule: string): Promise<boolean> {
  let removed = false;
  await updateFile(path, (current) => {
    const rules = currentRules(current, path, list);
    if (!rules.includes(rule)) return undefined;
    removed = true;
    return guarded(path, () => setProperty(current ?? "", ["permissions", list], rules.filter((r) => r !== rule), { jsonc: true }));
  });
  return removed;
}

/**
 * Adds `server` to `disabledMcpServers` of a settings.json (`/mcp disable`), or takes it out
 * (`disabled` false), written like the rules; false (and nothing written) when it was so already.
 */
export async function setServerDisabled(path: string, server: string, disabled: boolean): Promise<boolean> {
  let changed = false;
  await updateFile(path, (current) => {
    const value = guarded(path, () => readProperty(current ?? "", ["disabledMcpServers"], { jsonc: true }));
    if (value !== undefined && !Array.isArray(value)) throw new ConfigError(`"disabledMcpServers" in ${path} is not a list; fix it by hand; nothing was written`, "corrupt-file", path);
    const names = (value ?? []).filter((item): item is string => typeof item === "string");
    if (names.includes(server) === disabled) return undefined;
    changed = true;
    const next = disabled ? [...names, server] : names.filter((name) => name !== server);
    return guarded(path, () => setProperty(current ?? "", ["disabledMcpServers"], next, { jsonc: true }));
  });
  return changed;
}

function currentRules(text: string | undefined, path: string, list: List): string[] {
  const value = guarded(path, () => readProperty(text ?? "", ["permissions", list], { jsonc: true }));
  if (value === undefined) return [];
  if (!Array.isArray(value)) throw new ConfigError(`"permissions.${list}" in ${path} is not a list; fix it by hand; nothing was written`, "corrupt-file", path);
  return value.filter((item): item is string => typeof item === "string");
}

/** json-edit's errors do not know the file: name it, and say that nothing changed. */
function guarded<T>(path: string, work: () => T): T {
  try {
    return work();
  } catch (error) {
    if (error instanceof ConfigError && error.path === undefined) throw new ConfigError(`${path}: ${error.message}; fix it, then try again; nothing was written`, error.kind, path);
    throw error;
  }
}
