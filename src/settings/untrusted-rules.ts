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
