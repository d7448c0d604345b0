import type { PromptBlock } from "../agent/prompt-blocks.ts";
import { sanitizeForTerminal } from "../terminal/terminal-text.ts";
import { attachFiles } from "./file-mentions.ts";
import { attachResources, type AttachContext } from "./resource-mentions.ts";
import type { ShellContext } from "./shell-command.ts";

/**
 * What a typed prompt sends: the output of `!commands` run since the last prompt, the prompt as
 * typed, the `@server:uri` resources it mentions, then the `@path` files it names. A `⎿` line says
 * what was attached (or not, and why); undefined when the turn must not be sent (see attachResources).
 */
export async function attachMentions(text: string, context: AttachContext & { cwd: string; shell: ShellContext }): Promise<string | PromptBlock[] | undefined> {
  const servers = context.runtime.pool.status().map((status) => status.name);
  const files = await attachFiles(text, { cwd: context.cwd, servers });
  const prompt = await attachResources(text, context);
  if (prompt === undefined) return undefined;
  for (const note of files.notes) context.print(context.style.dim(`⎿ ${sanitizeForTerminal(note)}`));
  const before = context.shell.take();
  if (before.length === 0 && files.blocks.length === 0) return prompt;
  return [...before, ...(typeof prompt === "string" ? [{ type: "text" as const, text: prompt }] : prompt), ...files.blocks];
}
