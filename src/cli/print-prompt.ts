import { CliError } from "../terminal/cli-error.ts";
import { readBoundedStdin } from "./bounded-stdin.ts";

/**
 * What `-p` sends. Piped stdin goes along with the prompt (`cat log | cat-code -p "summarize"`),
 * marked as stdin so the model can tell the instruction from the material; with no prompt, stdin is
 * the prompt (`echo "fix it" | cat-code -p`). A terminal's stdin is never read: no one is piping.
 */
export async function printPrompt(prompt: string | undefined, stdin: { isTTY?: boolean; stream?: () => ReadableStream<Uint8Array> } = { isTTY: process.stdin.isTTY }): Promise<string> {
  const piped = stdin.isTTY ? "" : (await readBoundedStdin(stdin.stream?.())).replace(/\s+$/, "");
  const typed = prompt?.trim() ?? "";
  if (typed && piped.trim()) return `${typed}\n\n<stdin>\n${piped}\n</stdin>`;
  if (typed) return typed;
  if (piped.trim()) return piped;
  throw CliError.usage('-p needs a prompt: cat-code -p "<prompt>" (or pipe it on stdin)');
}
