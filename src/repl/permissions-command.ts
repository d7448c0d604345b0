import type { PermissionSettings, ListedRule } from "../settings/permission-settings.ts";
import { PERMISSION_LISTS, type PermissionList } from "../settings/settings.ts";
import { parseRule, wrapperOnlyProblem } from "../system/permission-rule-syntax.ts";
import { alignColumns, sanitizeForTerminal } from "../terminal/terminal-text.ts";

function removeHint(rules: ListedRule[]): string {
  const waiting = rules.some((entry) => entry.state !== "active");
  return `/permissions add allow|ask|deny <rule> adds one; /permissions remove <rule> removes one.${waiting ? " /permissions trust puts the project's ignored allow rules in force." : ""}`;
}

const STATE_NOTE: Record<ListedRule["state"], string> = {
  active: "",
  untrusted: "(not trusted here yet: ignored)",
  refused: "(refused here: ignored)",
};

const USAGE =
  "Usage: /permissions lists the rules; /permissions add [user] allow|ask|deny <rule> adds one (to the project's settings, or with user to yours), e.g. /permissions add deny Bash(git push:*); /permissions remove <rule> removes one; /permissions trust trusts the project's allow rules";

/**
 * `/permissions`: the rules in force, each with its file; `/permissions add …` writes one,
 * `/permissions remove <rule>` takes one out of its file(s).
 */
export async function permissionsCommand(args: string, settings: PermissionSettings | undefined, print: (text: string) => void): Promise<void> {
  if (!settings) return print("Permission rules are not available here.");
  const [sub = "", ...rest] = args.split(/\s+/);
  if (sub === "") return print(listText(settings));
  if (sub === "trust" && rest.length === 0) return trustProjectRules(settings, print);
  if (sub === "add") return addRule(args.trim().slice("add".length).trim(), settings, print);
  if (sub !== "remove" || rest.length === 0) return print(USAGE);
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

/**
 * `/permissions add [user|project] allow|ask|deny <rule>`: checked with the settings' own parser (a
 * rule the settings would ignore is refused here, with the reason), then written with the settings
 * writer to the project's `.cat-code/settings.json`, or the user's `settings.json` with `user`. It
 * holds from the next call on.
 */
async function addRule(text: string, settings: PermissionSettings, print: (text: string) => void): Promise<void> {
  const words = text.split(/\s+/);
  const scope = words[0] === "user" || words[0] === "project" ? words.shift() : "project";
  const list = words.shift() ?? "";
  const rule = words.join(" ").trim();
  if (!(PERMISSION_LISTS as readonly string[]).includes(list) || rule === "") return print(USAGE);
  const parsed = parseRule(rule);
  if (!parsed.ok) return print(`error: ${sanitizeForTerminal(parsed.error)}; nothing was written`);
  const useless = list === "allow" ? wrapperOnlyProblem(parsed.rule) : undefined;
  if (useless) return print(`error: ${sanitizeForTerminal(useless)}; nothing was written`);
  try {
    const file = await settings.add(list as PermissionList, rule, scope === "user" ? "user" : "project");
    print(`Added ${sanitizeForTerminal(rule)} to "permissions.${list}" in ${sanitizeForTerminal(file)}`);
  } catch (error) {
    print(`error: ${sanitizeForTerminal((error as Error).message)}`);
  }
}

/** Trusts the project's allow rules that are not in force (waiting, or refused before): the way back from a "never". */
async function trustProjectRules(settings: PermissionSettings, print: (text: string) => void): Promise<void> {
  const waiting = settings.list().filter((entry) => entry.state !== "active" && entry.scope === "project").map((entry) => entry.rule);
  if (waiting.length === 0) return print("Every allow rule of the project's settings is in force already.");
  try {
    await settings.trust(waiting, "trusted");
    print(`Trusted in this folder: ${waiting.map((rule) => sanitizeForTerminal(rule)).join(", ")}`);
  } catch (error) {
    print(`error: ${sanitizeForTerminal((error as Error).message)}`);
  }
}

function listText(settings: PermissionSettings): string {
  const rules = settings.list();
  if (rules.length === 0) {
    return [
      "No permission rules. Answer a (this project) or A (all projects) at a permission question to save one, add one with /permissions add allow|ask|deny <rule>, or write them in",
      `${sanitizeForTerminal(settings.projectFile)} or ${sanitizeForTerminal(settings.userFile)}:`,
      '  {"permissions": {"allow": ["Bash(npm test:*)", "Read(src/**)"], "ask": ["Bash(git push:*)"], "deny": ["Bash(rm:*)"]}}',
    ].join("\n");
  }
  // Deny first: it wins, whatever the allow rules say; then ask, which wins over allow.
  const ordered = [...rules.filter((r) => r.list === "deny"), ...rules.filter((r) => r.list === "ask"), ...rules.filter((r) => r.list === "allow")];
  const rows = ordered.map((entry) => [entry.list, sanitizeForTerminal(entry.rule), entry.scope === "command line" ? "command line" : sanitizeForTerminal(entry.file), STATE_NOTE[entry.state]]);
  return ["Permission rules (deny wins, then ask, then allow):", ...alignColumns(rows).map((line) => `  ${line.trimEnd()}`), removeHint(ordered)].join("\n");
}
