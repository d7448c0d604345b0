import { formatBytes } from "../system/format-bytes.ts";
import { CliError } from "../terminal/cli-error.ts";

/** What `-p` takes on stdin: a log or a diff, not a disk image. */
export const MAX_STDIN_BYTES = 10 * 1024 * 1024;

/**
 * All of stdin as text, refused past `maxBytes` with a usage error (nothing is sent): reading it
 * whole first would let `cat big.bin | cat-code -p` fill the memory.
 */
export async function readBoundedStdin(stream: ReadableStream<Uint8Array> = Bun.stdin.stream(), maxBytes = MAX_STDIN_BYTES): Promise<string> {
  const chunks: Uint8Array[] = [];
  let bytes = 0;
  const reader = stream.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    bytes += value.byteLength;
    if (bytes > maxBytes) {
      await reader.cancel().catch(() => {});
      throw CliError.usage(`stdin is over ${formatBytes(maxBytes)}: give -p a smaller input (or a file's path in the prompt, for the model to read)`);
    }
    chunks.push(value);
  }
  return new TextDecoder().decode(Buffer.concat(chunks));
}
