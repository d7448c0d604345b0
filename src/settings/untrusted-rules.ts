import { cutText } from "../system/cut-text.ts";
import type { LoadedSettings } from "./settings.ts";

/** The warning for a project's allow rules left out because nobody trusted them here yet; undefined when none. */
export function untrustedRulesWarning(loaded: LoadedSettings): string | undefined {
  const rules = loaded.untrustedAllow;
  if (rules.length === 0) return undefined;
  const shown = rules.slice(0, 5).map((rule) => cutText(rule, 80));
  const more = rules.length > shown.length ? `, and ${rules.length - shown.length} more` : "";
  return `${loaded.projectFile}: ${rules.length} allow rule(s) ignored, not yet trusted in this folder (${shown.join(", ")}${more}); start cat-code here at a terminal to review them`;
}

/** The warning for a project's model/thinking left out because nobody trusted them here yet; undefined when none. */
export function untrustedSettingsWarning(loaded: LoadedSettings): string | undefined {
  const values = loaded.untrustedSettings;
  if (values.length === 0) return undefined;
  const why = values.every((value) => value.startsWith("hooks:")) ? "hooks run commands" : "they choose what you pay for, or run commands";
  return `${loaded.projectFile}: ${values.map((value) => cutText(value, 80)).join(", ")} ignored, not yet trusted in this folder (${why}); start cat-code here at a terminal to review them, or put them in ${loaded.userFile}`;
}
