import { isPlainObject } from "../../system/plain-object.ts";
import { ConfigError } from "../../config/config-error.ts";
import { propertyNames, removeProperty, setProperty } from "../../config/json-edit.ts";
import { parseServerEntry, RESERVED_SERVER_NAMES } from "./load-config.ts";
import { updateFile } from "../../config/locked-file.ts";

/** Names a command may create: they become part of tool names, `mcp__<server>__<tool>`. */
const SERVER_NAME = /^[A-Za-z0-9_-]+$/;

/** Refuses a name that is not `[A-Za-z0-9_-]+`, or is `__proto__`. */
export function checkServerName(name: string, path: string): void {
  if (RESERVED_SERVER_NAMES.has(name)) {
    throw new ConfigError(`the server name ${JSON.stringify(name)} is reserved; choose another; nothing was written`, "invalid-name", path);
  }
  if (!SERVER_NAME.test(name)) {
    throw new ConfigError(
      `invalid server name ${JSON.stringify(name)}: use letters, digits, '_' and '-' only; nothing was written`,
      "invalid-name",
      path,
    );
  }
}

/**
 * Refuses an entry that would not load. `${VAR}`s need not be set yet (a shared `.mcp.json` names
 * variables each user sets), so they are filled with placeholders for this check.
 */
export function checkServerEntry(name: string, raw: unknown, path: string): void {
  const probe = isPlainObject(raw) && typeof raw.url === "string" && raw.url.includes("${") ? { ...raw, url: "http://placeholder.invalid/" } : raw;
  const placeholders = new Proxy<Record<string, string>>({}, { get: () => "placeholder" });
  const entry = parseServerEntry(name, probe, "user", path, placeholders);
  if (!entry.ok) throw new ConfigError(`invalid entry for '${name}': ${entry.error}; nothing was written`, "invalid-entry", path);
}

/** The server names in a config file's text; throws ConfigError when the text is not a config. */
export function serverNames(text: string | undefined, path: string): string[] {
  return guarded(path, () => propertyNames(text ?? "", ["mcpServers"]));
}

/**
 * Adds one entry to `mcpServers`, creating the file when missing and keeping every other byte of it.
 * A name already in the file, an invalid name or entry, or a file that is not a config: ConfigError,
 * and nothing is written.
 */
export async function addServer(path: string, name: string, raw: unknown, options: { mode?: number } = {}): Promise<void> {
  checkServerName(name, path);
  checkServerEntry(name, raw, path);
  await updateFile(
    path,
    (current) => {
      if (serverNames(current, path).includes(name)) {
        throw new ConfigError(`a server named '${name}' already exists in ${path}; remove it first`, "duplicate-name", path);
      }
      return guarded(path, () => setProperty(current ?? "", ["mcpServers", name], raw));
    },
    options,
  );
}

/**
 * Removes one entry from `mcpServers`, keeping every other byte of the file. A name written twice
 * is refused: the last one is in effect, a text edit could easily take the other, and the user
 * should see both before one goes.
 */
export async function removeServer(path: string, name: string): Promise<void> {
  await updateFile(path, (current) => {
    const names = serverNames(current, path);
    if (!names.includes(name)) {
      const known = names.length ? `servers there: ${[...new Set(names)].join(", ")}` : "it has no servers";
      throw new ConfigError(`no server named '${name}' in ${path} (${known}); nothing was written`, "unknown-name", path);
    }
    const copies = names.filter((n) => n === name).length;
    if (copies > 1) {
      throw new ConfigError(
        `'${name}' is written ${copies} times in "mcpServers" of ${path} (the last one is in effect); remove the copies by hand; nothing was written`,
        "duplicate-name",
        path,
      );
    }
    return guarded(path, () => removeProperty(current ?? "", ["mcpServers", name]));
  });
}

function guarded<T>(path: string, body: () => T): T {
  try {
    return body();
  } catch (error) {
    // json-edit knows no file names: the message gets this one.
    if (error instanceof ConfigError && error.path === undefined) throw new ConfigError(`${path}: ${error.message}; nothing was written`, error.kind, path);
    throw error;
  }
}
