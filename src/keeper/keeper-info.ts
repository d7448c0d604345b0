import { readFileSync, unlinkSync } from "node:fs";
import * as v from "valibot";
import { writeAtomically } from "../system/atomic-write.ts";
import { randomHex } from "../system/light-crypto.ts";
import { checkKeeperFile } from "./keeper-folder.ts";

/** `keeper.json`: who the running keeper is, and the token a command must show in `hello`. */
export const KeeperInfo = v.object({
  pid: v.pipe(v.number(), v.integer(), v.minValue(1)),
  version: v.pipe(v.string(), v.maxLength(200)),
  protocol: v.number(),
  token: v.pipe(v.string(), v.regex(/^[0-9a-f]{64}$/)),
  startedAt: v.number(),
});
export type KeeperInfo = v.InferOutput<typeof KeeperInfo>;

/** A real keeper.json is ~200 bytes; anything much larger was not written by a keeper. */
const MAX_INFO_BYTES = 4096;

/** A new secret for `hello`: 32 random bytes, hex. */
export function newKeeperToken(): string {
  return randomHex(32);
}

/** Writes the file atomically, 0600 (it holds the token). */
export function writeKeeperInfo(path: string, info: KeeperInfo): void {
  writeAtomically(path, `${JSON.stringify(info)}\n`, 0o600);
}

/**
 * The keeper's info, or undefined when there is none or it is unusable (corrupt, oversized). A file
 * others may read or write throws KeeperFolderError: its token is no secret any more.
 */
export function readKeeperInfo(path: string): KeeperInfo | undefined {
  checkKeeperFile(path);
  let text: string;
  try {
    const bytes = readFileSync(path);
    if (bytes.length > MAX_INFO_BYTES) return undefined;
    text = bytes.toString("utf8");
  } catch {
    return undefined;
  }
  try {
    const parsed = v.safeParse(KeeperInfo, JSON.parse(text));
    return parsed.success ? parsed.output : undefined;
  } catch {
    return undefined;
  }
}

/** Removes the file and the socket, but only while the file is still this keeper's (same token). */
export function removeIfOurs(paths: { info: string; socket: string }, token: string): void {
  let current: KeeperInfo | undefined;
  try {
    current = readKeeperInfo(paths.info);
  } catch {
    return;
  }
  if (current?.token !== token) return;
  for (const path of [paths.socket, paths.info]) {
    try {
      unlinkSync(path);
    } catch {}
  }
}
