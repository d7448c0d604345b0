import { lstat, readlink, realpath } from "node:fs/promises";
import type { ToolCallPreview } from "../tool.ts";
import { MAX_READ_BYTES } from "./read-file-tool.ts";
import { readRegularFile } from "./regular-file.ts";
import { unifiedDiff } from "./unified-diff.ts";

/**
 * What write_file and edit_file show before they run: the path and a unified diff from what the
 * file holds now to what it would hold. `change` turns the current text into the new one; when it
 * cannot (the call will fail), it names other texts to compare (`from`) and says why in `note`.
 */
export async function fileChangePreview(
  file: string,
  shown: string,
  change: (current: string | undefined) => { text: string; from?: string; note?: string },
  signal?: AbortSignal,
): Promise<ToolCallPreview> {
  const preview = await changePreview(file, shown, change, signal);
  // A link named notes.md may point at ~/.bashrc: the question names what really changes.
  const isLink = await lstat(file).then((info) => info.isSymbolicLink(), () => false);
  if (!isLink || preview.kind !== "file-change") return preview;
  const target = await realpath(file).catch(async () => `${await readlink(file).catch(() => "?")} (which does not exist yet)`);
  const link = `a symlink to ${target}`;
  return { ...preview, note: preview.note ? `${link}; ${preview.note}` : link };
}

async function changePreview(
  file: string,
  shown: string,
  change: (current: string | undefined) => { text: string; from?: string; note?: string },
  signal?: AbortSignal,
): Promise<ToolCallPreview> {
  // The edit tool's own cap: a file it can change is a file the question can compare, so the
  // question never says an edit will fail that would in fact succeed. (The diff stays cheap: the
  // lines both texts share at either end are set aside, and the rest is bounded in work.)
  const read = await readRegularFile(file, shown, { maxBytes: MAX_READ_BYTES, signal });
  if (read.ok) {
    const current = new TextDecoder().decode(read.bytes);
    const { text, from, note } = change(current);
    const diff = unifiedDiff(from ?? current, text, { oldName: shown, newName: shown });
    return { kind: "file-change", path: shown, diff, note: note ?? (diff === "" ? "no change: the content is the same" : undefined) };
  }
  const { text, from, note } = change(undefined);
  const diff = unifiedDiff(from ?? "", text, { oldName: read.failure === "missing" ? "/dev/null" : shown, newName: shown });
  const why =
    read.failure === "missing"
      ? "a new file"
      : read.failure === "too-large"
        ? `the file is over ${MAX_READ_BYTES} bytes, too large to compare; all of the new content is shown`
        : from === undefined
          ? `${read.reason}; shown as if it were empty`
          : read.reason;
  return { kind: "file-change", path: shown, diff, note: note ? `${why}; ${note}` : why };
}
