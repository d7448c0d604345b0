import type { Prompt } from "../../mcp/protocol.ts";
import { CliError } from "../../terminal/cli-error.ts";
import { unknownNameMessage } from "../../terminal/suggest.ts";

/** `city*, state`: the arguments in order, the required ones marked; `-` for none. */
export function argumentList(prompt: Prompt): string {
  const list = (prompt.arguments ?? []).map((a) => (a.required ? `${a.name}*` : a.name)).join(", ");
  return list || "-";
}

/** Before `prompts/get`: every key is one of the prompt's arguments, and every required one is there. */
export function checkPromptArguments(prompt: Prompt, given: Record<string, string>): void {
  const names = (prompt.arguments ?? []).map((a) => a.name);
  const listing = `arguments of '${prompt.name}': ${argumentList(prompt)}${names.length ? "; * = required" : ""}`;
  for (const key of Object.keys(given)) {
    if (!names.includes(key)) throw CliError.usage(`${unknownNameMessage("argument", key, names)} (${listing})`);
  }
  const missing = (prompt.arguments ?? []).filter((a) => a.required && !Object.hasOwn(given, a.name)).map((a) => a.name);
  if (missing.length > 0) {
    const add = missing.map((name) => `${name}=...`).join(" ");
    throw CliError.usage(`missing required argument${missing.length > 1 ? "s" : ""} ${missing.map((n) => `'${n}'`).join(", ")}: add ${add} (${listing})`);
  }
}
