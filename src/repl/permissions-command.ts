import type { PermissionSettings, ListedRule } from "../settings/permission-settings.ts";
import { alignColumns, sanitizeForTerminal } from "../terminal/terminal-text.ts";

const STATE_NOTE: Record<ListedRule["state"], string> = {
  active: "",
  untrusted: "(not trusted here yet: ignored)",
  refused: "(refused here: ignored)",
};

/** `/permissions`: the rules in force, each with its file; `/permissions remove <rule>` takes one out of its file(s). */
export async function permissionsCommand(args: string, settings: PermissionSettings | undefined, print: (text: string) => void): Promise<void> {
  if (!settings) return print("Permission rules are not available here.");
  const [sub = "", ...rest] = args.split(/\s+/);
  if (sub === "") return print(listText(settings));
  if (sub !== "remove" || rest.length === 0) return print("Usage: /permissions lists the rules; /permissions remove <rule> removes one, e.g. /permissions remove Bash(npm test:*)");
  const rule = args.slice("remove".length).trim();
  const listed = settings.list().filter((entry) => entry.rule === rule);
  if (listed.length === 0) return print(`No rule ${sanitizeForTerminal(rule)} in ${sanitizeForTerminal(settings.projectFile)} or ${sanitizeForTerminal(settings.userFile)}; /permissions lists the rules.`);
  if (listed.every((entry) => entry.scope === "command line")) return print(`${sanitizeForTerminal(rule)} comes from the command line (--allowedTools/--disallowedTools): it holds until cat-code exits.`);
  try {
    const files = await settings.remove(rule);
    print(files.length ? `Removed ${sanitizeForTerminal(rule)} from ${files.map((file) => sanitizeForTerminal(file)).join(" and ")}` : `${sanitizeForTerminal(rule)} was no longer in the settings files.`);
  } catch (error) {
    print(`error: ${sanitizeForTerminal((error as Error).message)}`);
  }
}

function listText(settings: PermissionSettings): string {
  const rules = settings.list();
  if (rules.length === 0) {
    return [
      "No permission rules. Answer a (this project) or A (all projects) at a permission question to save one, or write them in",
      `${sanitizeForTerminal(settings.projectFile)} or ${sanitizeForTerminal(settings.userFile)}:`,
      '  {"permissions": {"allow": ["Bash(npm test:*)", "Read(src/**)"], "deny": ["Bash(rm:*)"]}}',
    ].join("\n");
  }
  // Deny first: it wins, whatever the allow rules say.
  const ordered = [...rules.filter((r) => r.list === "deny"), ...rules.filter((r) => r.list === "allow")];
  const rows = ordered.map((entry) => [entry.list, sanitizeForTerminal(entry.rule), entry.scope === "command line" ? "command line" : sanitizeForTerminal(entry.file), STATE_NOTE[entry.state]]);
  return ["Permission rules (deny wins):", ...alignColumns(rows).map((line) => `  ${line.trimEnd()}`), "/permissions remove <rule> removes one."].join("\n");
}
