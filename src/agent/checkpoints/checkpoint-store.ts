import { chmodSync, closeSync, existsSync, fchmodSync, mkdirSync, openSync, readdirSync, readFileSync, statSync, writeSync } from "node:fs";
import { join } from "node:path";
import { writeAtomically } from "../../system/atomic-write.ts";
import { sha256Hex } from "../../system/light-crypto.ts";
import { boundedLines } from "../conversation-log/bounded-lines.ts";
import { decodeCheckpointLine, type CheckpointLine } from "./checkpoint-line.ts";

/** The journal's lines are small (paths and hashes); a line or a file past these is not ours. */
const LINE_LIMITS = { maxLineBytes: 64 * 1024, maxFileBytes: 32 * 1024 * 1024 };

/**
 * A session's checkpoints on disk: `<session>/checkpoints/journal.jsonl` (one CheckpointLine per
 * line, appended) and `blobs/<sha256>`, each file's content once however many prompts kept it.
 * Files are 0600 and folders 0700: they hold the user's files as they were.
 */
export class CheckpointStore {
  readonly folder: string;
  readonly sessionFolder: string;
  private readonly journalPath: string;
  private readonly blobsFolder: string;

  constructor(sessionFolder: string) {
    this.sessionFolder = sessionFolder;
    this.folder = join(sessionFolder, "checkpoints");
    this.journalPath = join(this.folder, "journal.jsonl");
    this.blobsFolder = join(this.folder, "blobs");
  }

  /** The journal's lines up to the first one that is not whole and valid (a crash mid-write). */
  read(): CheckpointLine[] {
    if (!existsSync(this.journalPath)) return [];
    const lines: CheckpointLine[] = [];
    try {
      for (const event of boundedLines(this.journalPath, LINE_LIMITS)) {
        if (event.kind !== "line") break;
        if (event.text.trim() === "") continue;
        const line = decodeCheckpointLine(event.text);
        if (!line) break;
        lines.push(line);
      }
    } catch {
      // An unreadable journal is no checkpoints, not a broken session.
    }
    return lines;
  }

  hasJournal(): boolean {
    return existsSync(this.journalPath);
  }

  append(line: CheckpointLine): void {
    this.ensureFolder(this.folder);
    const fd = openSync(this.journalPath, "a", 0o600);
    try {
      fchmodSync(fd, 0o600);
      writeSync(fd, `${JSON.stringify(line)}\n`);
    } finally {
      closeSync(fd);
    }
  }

  /** Keeps `bytes` as a blob (once per content); returns its sha256. */
  putBlob(bytes: Uint8Array): string {
    const sha = sha256Hex(bytes);
    const path = join(this.blobsFolder, sha);
    if (existsSync(path)) return sha;
    this.ensureFolder(this.blobsFolder);
    // Whole or not at all: a blob cut by a crash must not pass for the file's content. Not flushed:
    // readBlob checks the hash, so a blob a crash left cut is found there.
    writeAtomically(path, bytes, 0o600, { flush: false });
    return sha;
  }

  hasBlob(sha: string): boolean {
    return existsSync(join(this.blobsFolder, sha));
  }

  /** The blob's bytes, or undefined when it is missing or no longer matches its hash. */
  readBlob(sha: string): Uint8Array | undefined {
    try {
      const bytes = readFileSync(join(this.blobsFolder, sha));
      return sha256Hex(bytes) === sha ? bytes : undefined;
    } catch {
      return undefined;
    }
  }

  /** The bytes the blobs take now: what counts against the session's bound. */
  blobBytes(): number {
    try {
      return readdirSync(this.blobsFolder).reduce((sum, name) => sum + statSync(join(this.blobsFolder, name)).size, 0);
    } catch {
      return 0;
    }
  }

  private ensureFolder(folder: string): void {
    mkdirSync(folder, { recursive: true, mode: 0o700 });
    chmodSync(folder, 0o700);
  }
}
