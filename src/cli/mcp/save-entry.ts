import { addServer } from "../../mcp/config/config-writer.ts";
import { parseServerEntry, readConfigFile } from "../../mcp/config/load-config.ts";
import { recordApproval } from "../../mcp/config/project-approval.ts";
import { printResult } from "../../terminal/output.ts";
import { configPathFor, fileModeFor, writingConfig, type WritableScope } from "./config-scope.ts";

/**
 * Writes a new entry into the scope's file (`mcp add`, `mcp add-json`) and says where it went. A
 * project entry added here is approved at once: the person who typed it needs no question about it.
 */
export async function saveEntry(name: string, scope: WritableScope, raw: Record<string, unknown>): Promise<void> {
  const path = configPathFor(scope);
  await writingConfig(() => addServer(path, name, raw, { mode: fileModeFor(scope) }));
  if (scope === "project") {
    await writingConfig(() => recordApproval(parseServerEntry(name, raw, "project", path, process.env), "approved"));
  }
  const kind = raw.url !== undefined ? "http" : "stdio";
  await printResult(`Added ${kind} server '${name}' to ${path} (${scope} scope)`);
  const other: WritableScope = scope === "user" ? "project" : "user";
  const otherPath = configPathFor(other);
  if (readConfigFile(otherPath, other).servers.some((entry) => entry.name === name)) {
    console.error(
      scope === "project"
        ? `note: it overrides the user entry '${name}' in ${otherPath} in this folder`
        : `note: ${otherPath} also has '${name}'; in that folder the project entry overrides this one`,
    );
  }
}
