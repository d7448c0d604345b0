import { log } from "../log.ts";
import type { Clock } from "../system/clock.ts";
import { CliError } from "../terminal/cli-error.ts";
import { readBoundedStdin } from "./bounded-stdin.ts";

/** With a prompt given, how long stdin may stay silent before -p goes on without it. */
export const STDIN_WAIT_MS = 3000;

/**
 * What `-p` sends. Piped stdin goes along with the prompt (`cat log | cat-code -p "summarize"`),
 * marked as stdin so the model can tell the instruction from the material; with no prompt, stdin is
 * the prompt (`echo "fix it" | cat-code -p`). A terminal's stdin is never read: no one is piping.
 */
export async function printPrompt(
  prompt: string | undefined,
  stdin: { isTTY?: boolean; stream?: ReadableStream<Uint8Array>; clock?: Clock } = { isTTY: process.stdin.isTTY },
): Promise<string> {
  const typed = prompt?.trim() ?? "";
  let piped = "";
  if (!stdin.isTTY) {
    const read = await readBoundedStdin(stdin.stream, { firstDataWithinMs: typed ? STDIN_WAIT_MS : undefined, clock: stdin.clock });
    if (read === undefined) log.warn(`no input came on stdin within ${STDIN_WAIT_MS / 1000} s: going on with the prompt alone (give -p stdin with < /dev/null to skip the wait)`);
    piped = (read ?? "").replace(/\s+$/, "");
  }
  if (typed && piped.trim()) return `${typed}\n\n<stdin>\n${piped}\n</stdin>`;
  if (typed) return typed;
  if (piped.trim()) return piped;
  throw CliError.usage('-p needs a prompt: cat-code -p "<prompt>" (or pipe it on stdin)');
}
