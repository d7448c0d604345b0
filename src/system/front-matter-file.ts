import { closeSync, constants, fstatSync, openSync, readSync } from "node:fs";

/** Front matter lines read: a file that is nearly all front matter is not one to trust further. */
const FRONT_MATTER_LINES = 50;

/**
 * A Markdown file as Claude Code's commands and agents are written (a project's is hostile input):
 * at most `maxBytes` of it as UTF-8, and whether that is all of it; `error` when it cannot be read
 * or is not a regular file. Opened non-blocking: a FIFO put in its place must not hang the reader.
 */
export function readBoundedText(path: string, maxBytes: number): { text: string; cut: boolean } | { error: string } {
  let fd: number | undefined;
  try {
    fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK);
    if (!fstatSync(fd).isFile()) return { error: "not a regular file" };
    // One byte past the bound tells a file that fits from one that was cut.
    const buffer = Buffer.alloc(maxBytes + 1);
    let length = 0;
    while (length < buffer.length) {
      const read = readSync(fd, buffer, length, buffer.length - length, length);
      if (read === 0) break;
      length += read;
    }
    return { text: buffer.subarray(0, Math.min(length, maxBytes)).toString("utf8"), cut: length > maxBytes };
  } catch (error) {
    return { error: (error as Error).message };
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/**
 * `---` … `---` at the very top, read as the simple YAML Claude Code's files use: `key: value`,
 * a value in quotes, or a list of `- item` lines under the key; keys in lower case. Anything else
 * is prose. `found` is false (and `body` the whole text) where there is none.
 */
export function frontMatter(text: string): { fields: Map<string, string[]>; body: string; found: boolean } {
  const fields = new Map<string, string[]>();
  const normal = text.replace(/^\uFEFF/, "").replace(/\r\n/g, "\n");
  const lines = normal.split("\n");
  if (lines[0]?.trim() !== "---") return { fields, body: normal, found: false };
  const end = lines.findIndex((line, index) => index > 0 && line.trim() === "---");
  if (end === -1 || end > FRONT_MATTER_LINES) return { fields, body: normal, found: false };
  let key: string | undefined;
  for (const line of lines.slice(1, end)) {
    const item = /^\s+-\s*(.*)$/.exec(line) ?? /^-\s+(.*)$/.exec(line);
    if (item && key) {
      fields.get(key)?.push(unquote(item[1] as string));
      continue;
    }
    const pair = /^([A-Za-z][\w-]*)\s*:\s*(.*)$/.exec(line);
    if (!pair) continue;
    key = (pair[1] as string).toLowerCase();
    const value = unquote(pair[2] as string);
    fields.set(key, value ? [value] : []);
  }
  return { fields, body: lines.slice(end + 1).join("\n").replace(/^\n+/, ""), found: true };
}

/** A value as YAML reads it: the text inside its quotes, or a plain one up to a ` #` comment. */
function unquote(value: string): string {
  const trimmed = value.trim();
  const quoted = /^(["'])(.*?)\1(?:\s+#.*)?$/.exec(trimmed);
  if (quoted) return quoted[2] as string;
  return trimmed.replace(/(?:^|\s+)#.*$/, "");
}
