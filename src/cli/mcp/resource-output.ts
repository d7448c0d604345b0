import { writeFileSync } from "node:fs";
import type { ResourceContents } from "../../mcp/protocol.ts";
import { formatBytes } from "../../mcp/text-index.ts";
import { CliError } from "../../terminal/cli-error.ts";
import { printRaw, printResult } from "../../terminal/output.ts";
import { sanitizeForTerminal } from "../../terminal/terminal-text.ts";

/** One part of a read, as bytes or text, with what a person needs to know of it. */
interface Part {
  uri: string;
  mimeType: string | undefined;
  data: string | Uint8Array;
}

const BASE64 = /^[A-Za-z0-9+/_-]*={0,2}$/;

/** A part's content: its text, or its blob decoded (a blob that is not base64 is the server's fault: exit 3). */
function partOf(contents: ResourceContents, server: string): Part {
  const { uri, mimeType, blob, text } = contents;
  if (blob === undefined) return { uri, mimeType, data: text ?? "" };
  if (!BASE64.test(blob)) throw CliError.unavailable(`'${uri}' from '${server}': its blob is not base64`);
  return { uri, mimeType, data: Buffer.from(blob, "base64") };
}

/** `image/png, 68 B`: what a part is, for a line on stderr. */
function describe(part: Part): string {
  const size = typeof part.data === "string" ? Buffer.byteLength(part.data) : part.data.length;
  return `${part.mimeType ?? (typeof part.data === "string" ? "text" : "binary")}, ${formatBytes(size)}`;
}

/**
 * Writes what `resources/read` returned where the user asked:
 * - `out`: every part, in order, to that file (text as UTF-8, blobs decoded), and a line on stderr
 *   per part saying what was written;
 * - stdout that is not a terminal: the same bytes, exactly (no newline added: `mcp read … > copy` is
 *   the resource), since a script asked for them as `curl` or `cat` would give them;
 * - a terminal: text sanitized; binary is refused before anything is printed (it would be litter
 *   at best, and escape sequences at worst), with a message naming `--out`.
 * With several parts, a line on stderr names each before it: stdout stays the content alone.
 */
export async function writeResourceContents(contents: ResourceContents[], server: string, options: { out?: string; terminal: boolean }): Promise<void> {
  const parts = contents.map((c) => partOf(c, server));
  const label = (part: Part) => sanitizeForTerminal(part.uri);
  if (options.out !== undefined) {
    const out = options.out;
    try {
      writeFileSync(out, Buffer.concat(parts.map((p) => (typeof p.data === "string" ? Buffer.from(p.data) : p.data))));
    } catch (error) {
      throw CliError.unavailable(`cannot write ${out}: ${(error as Error).message}`);
    }
    for (const part of parts) console.error(`wrote ${label(part)} (${sanitizeForTerminal(describe(part))}) to ${out}`);
    if (parts.length === 0) console.error(`the resource has no contents; ${out} is empty`);
    return;
  }
  const binary = parts.find((p) => typeof p.data !== "string");
  if (options.terminal && binary) {
    throw CliError.usage(
      `'${label(binary)}' is binary (${sanitizeForTerminal(describe(binary))}) and not printed to a terminal: use --out FILE, or redirect stdout`,
    );
  }
  if (parts.length === 0) console.error("The resource has no contents.");
  for (const part of parts) {
    if (parts.length > 1) console.error(`--- ${label(part)} (${sanitizeForTerminal(describe(part))})`);
    if (options.terminal) await printResult(part.data as string);
    else await printRaw(part.data);
  }
}
