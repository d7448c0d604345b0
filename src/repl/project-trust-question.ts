import { createInterface } from "node:readline/promises";
import { loadSettings } from "../settings/load-settings.ts";
import { recordProjectTrust } from "../settings/project-trust.ts";
import type { LoadedSettings } from "../settings/settings.ts";
import { sanitizeForTerminal } from "../terminal/terminal-text.ts";

/**
 * At REPL start, at a terminal: the project's `.cat-code/settings.json` allows some calls without
 * asking, or picks a model or a thinking budget (what the user pays for), and it may have come with
 * a clone. Its allow rules and such values not yet trusted for this folder are shown whole, and
 * asked about once, together: "yes" trusts them, "no" refuses them for good (not asked again until
 * they change), "later" (or Enter) leaves them ignored and asks next time.
 * Like the project MCP servers' question (project-approval-question.ts), before anything runs.
 */
export async function askProjectTrust(
  settings: LoadedSettings,
  cwd: string,
  input: NodeJS.ReadableStream = process.stdin,
  output: NodeJS.WritableStream = process.stdout,
): Promise<LoadedSettings> {
  const pending = [...settings.untrustedAllow];
  const values = [...settings.untrustedSettings];
  if (pending.length === 0 && values.length === 0) return settings;
  const file = sanitizeForTerminal(settings.projectFile);
  if (pending.length > 0) output.write(`${file} wants to allow these without asking:\n`);
  for (const rule of pending) output.write(`  ${sanitizeForTerminal(rule)}\n`);
  // Hooks are commands: shown whole, one line per command, under what they run at.
  const costly = values.filter((value) => !value.startsWith("hooks:"));
  const hooks = values.filter((value) => value.startsWith("hooks:"));
  if (costly.length > 0) output.write(`${file} wants to choose what you pay for:\n`);
  for (const value of costly) output.write(`  ${sanitizeForTerminal(value)}\n`);
  if (hooks.length > 0) output.write(`${file} wants to run these commands (hooks):\n`);
  for (const line of hooks.flatMap(hookLines)) output.write(`  ${sanitizeForTerminal(line)}\n`);
  const what = pending.length === 0 ? "settings" : values.length === 0 ? "rules" : "rules and settings";
  const reader = createInterface({ input, output, terminal: true });
  try {
    const answer = (await reader.question(`Trust these ${what} in this folder? [y]es / [n]o, never / [l]ater `)).trim().toLowerCase();
    const decision = answer === "y" || answer === "yes" ? "trusted" : answer === "n" || answer === "no" ? "refused" : undefined;
    if (!decision) {
      output.write(`The project's ${what} are ignored for now; you will be asked again.\n`);
      return settings;
    }
    if (pending.length > 0) await recordProjectTrust(cwd, pending, decision, process.env);
    if (values.length > 0) await recordProjectTrust(cwd, values, decision, process.env, "projectSettings");
    // Read again: the files are what is in force (the warnings were shown already).
    return loadSettings({ cwd });
  } catch (error) {
    output.write(`Could not record the answer: ${sanitizeForTerminal((error as Error).message)}\n`);
    return settings;
  } finally {
    reader.close();
  }
}

/** `hooks: {…}` as `PreToolUse Bash: ./check.sh`, one line per command; what does not parse, as written. */
function hookLines(trustKey: string): string[] {
  try {
    const hooks = JSON.parse(trustKey.slice("hooks:".length)) as Record<string, { matcher?: string; hooks: { command: string }[] }[]>;
    return Object.entries(hooks).flatMap(([event, groups]) => groups.flatMap((group) => group.hooks.map((hook) => `${event}${group.matcher ? ` ${group.matcher}` : ""}: ${hook.command}`)));
  } catch {
    return [trustKey];
  }
}
