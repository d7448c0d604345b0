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
