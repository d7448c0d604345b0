import { closeSync, constants, fstatSync, openSync, readSync, statSync } from "node:fs";
import { ConfigError } from "./config-error.ts";

/**
 * The most a config file may hold. Real ones are a few kilobytes; the cap keeps a huge or endless
 * file (a project can ship anything as `.mcp.json`) from filling memory.
 */
export const MAX_CONFIG_BYTES = 4 * 1024 * 1024;

/** Editors on Windows may start a UTF-8 file with one; JSON parsers reject it. */
const BOM = "\uFEFF";

export interface ConfigText {
  /** The text without a leading byte-order mark. */
  text: string;
  /** Whether the file started with a byte-order mark (a rewrite keeps it). */
  bom: boolean;
}

/**
 * Reads a config file (mcp.json, .mcp.json, approvals.json): undefined when there is none. Only a
 * regular file of at most MAX_CONFIG_BYTES is read; a folder, a FIFO, a device such as /dev/zero or
 * a larger file is a ConfigError ("unreadable-file") at once, never a hang. A symlink is followed.
 */
export function readConfigText(path: string, maxBytes = MAX_CONFIG_BYTES): ConfigText | undefined {
  let kind: string | undefined;
  try {
    kind = fileKind(statSync(path));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw unreadable(path, (error as Error).message);
  }
  if (kind !== "file") throw unreadable(path, `it is ${kind}, not a regular file`);
  let fd: number;
  try {
    // O_NONBLOCK: should the file be swapped for a FIFO after the check, opening it must not wait.
    fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK);
  } catch (error) {
    throw unreadable(path, (error as Error).message);
  }
  try {
    const opened = fileKind(fstatSync(fd));
    if (opened !== "file") throw unreadable(path, `it is ${opened}, not a regular file`);
    const buffer = Buffer.alloc(Math.min(maxBytes + 1, Math.max(fstatSync(fd).size + 1, 4096)));
    let length = 0;
    for (;;) {
      if (length === buffer.length) break;
      const read = readSync(fd, buffer, length, buffer.length - length, null);
      if (read === 0) break;
      length += read;
    }
    if (length > maxBytes) throw unreadable(path, `it is larger than ${maxBytes} bytes`);
    const text = buffer.subarray(0, length).toString("utf8");
    return text.startsWith(BOM) ? { text: text.slice(BOM.length), bom: true } : { text, bom: false };
  } catch (error) {
    if (error instanceof ConfigError) throw error;
    throw unreadable(path, (error as Error).message);
  } finally {
    closeSync(fd);
  }
}

/** Puts back the byte-order mark a file had, so a rewrite changes only what it meant to. */
export function withBom(text: string, bom: boolean): string {
  return bom ? `${BOM}${text}` : text;
}

function fileKind(stat: { isFile(): boolean; isDirectory(): boolean; isFIFO(): boolean; isSocket(): boolean }): string {
  if (stat.isFile()) return "file";
  if (stat.isDirectory()) return "a folder";
  if (stat.isFIFO()) return "a FIFO";
  if (stat.isSocket()) return "a socket";
  return "a device";
}

function unreadable(path: string, why: string): ConfigError {
  return new ConfigError(`cannot read ${path}: ${why}`, "unreadable-file", path);
}
