import { join, resolve } from "node:path";
import * as v from "valibot";
import { readConfigText } from "../../config/config-file-text.ts";
import { catCodeHome } from "../../config/app-home.ts";
import { updateFile } from "../../config/locked-file.ts";
import { entryFingerprint } from "../config/project-approval.ts";
import type { ServerConfig } from "../config/server-config.ts";
import { log } from "../../log.ts";
import { isPlainObject } from "../../system/plain-object.ts";
import type { Era } from "./version-negotiation.ts";

/**
 * Which protocol era (and version) each server configuration spoke last time, kept in
 * `$CAT_CODE_HOME/protocol-eras.json` so that the next start skips the probe: a legacy stdio server
 * may stay silent on `server/discover`, and waiting out that probe on every cold `mcp call` would
 * cost every legacy server its speed. The spec allows it (persist per configuration, re-probe when
 * the assumption fails: call `forget`). A record older than REPROBE_AFTER_MS is stale: the client
 * probes that server again, and what it finds is recorded anew. It is a cache: a missing, corrupt or
 * oversized file, or one that cannot be written, is a debug line and no memory, never an error.
 */

export interface EraRecord {
  era: Era;
  version: string;
  /**
   * When the era was found (ms since the epoch): a stale record is probed again, and the oldest
   * records go first when the file is full.
   */
  at: number;
}

/** A record as recalled: `stale` when it is old enough to be probed again. */
export interface RecalledEra extends EraRecord {
  stale: boolean;
}

/**
 * How long a found era holds before the server is probed again. A legacy record may be wrong: the
 * server was upgraded since, or it is a dual-era server slow to start (a first `npx` download) that
 * missed the probe's window and did not answer the probe even late (McpClient.lateProbeAnswer). A
 * day costs a silent legacy server one probe window a day; a modern record is merely written again.
 */
export const REPROBE_AFTER_MS = 24 * 60 * 60 * 1000;

const StoredRecord = v.object({ era: v.picklist(["modern", "legacy"]), version: v.pipe(v.string(), v.maxLength(64)), at: v.number() });

/** Far more servers than anyone configures; beyond it the oldest records are dropped. */
export const MAX_ERA_RECORDS = 256;
/** About 150 bytes a record: a file beyond this is not ours to trust. */
export const MAX_ERA_FILE_BYTES = 256 * 1024;
/** It is a cache: waiting long for another writer is not worth it. */
const LOCK_TIMEOUT_MS = 1000;

type Env = Record<string, string | undefined>;

export interface EraMemoryOptions {
  env?: Env;
  /** Wall-clock time for `at` (STYLE: time is an argument); Date.now by default. */
  now?: () => number;
  maxRecords?: number;
}

export class EraMemory {
  readonly path: string;
  private readonly now: () => number;
  private readonly maxRecords: number;

  constructor(options: EraMemoryOptions = {}) {
    this.path = join(catCodeHome(options.env), "protocol-eras.json");
    this.now = options.now ?? Date.now;
    this.maxRecords = options.maxRecords ?? MAX_ERA_RECORDS;
  }

  /** What this configuration spoke last time, if remembered, and whether that is stale. */
  recall(config: ServerConfig): RecalledEra | undefined {
    const record = this.read()[eraFingerprint(config)];
    return record && { ...record, stale: this.isStale(record) };
  }

  /**
   * Records what this configuration speaks (found now); nothing is written when that is already
   * recorded and not stale.
   */
  async remember(config: ServerConfig, choice: { era: Era; version: string }): Promise<void> {
    const key = eraFingerprint(config);
    const known = this.read()[key];
    if (known?.era === choice.era && known.version === choice.version && !this.isStale(known)) return;
    await this.update((records) => {
      records[key] = { era: choice.era, version: choice.version, at: this.now() };
    });
  }

  /** Drops what was recorded for this configuration: it no longer holds (the server changed). */
  async forget(config: ServerConfig): Promise<void> {
    const key = eraFingerprint(config);
    if (this.read()[key] === undefined) return;
    await this.update((records) => {
      delete records[key];
    });
  }

  /** Older than REPROBE_AFTER_MS, or as far in the future (a clock set back must not pin a record for good). */
  private isStale(record: EraRecord): boolean {
    return Math.abs(this.now() - record.at) > REPROBE_AFTER_MS;
  }

  private read(): Record<string, EraRecord> {
    try {
      return parseRecords(readConfigText(this.path, MAX_ERA_FILE_BYTES)?.text, this.path);
    } catch (error) {
      log.debug(`protocol eras: ${(error as Error).message}; probing servers afresh`);
      return {};
    }
  }

  private async update(change: (records: Record<string, EraRecord>) => void): Promise<void> {
    try {
      await updateFile(
        this.path,
        (current) => {
          const records = current !== undefined && current.length <= MAX_ERA_FILE_BYTES ? parseRecords(current, this.path) : {};
          change(records);
          return `${JSON.stringify({ servers: newest(records, this.maxRecords) }, null, 2)}\n`;
        },
        { mode: 0o600, lockTimeoutMs: LOCK_TIMEOUT_MS },
      );
    } catch (error) {
      log.debug(`protocol eras not saved: ${(error as Error).message}`);
    }
  }
}

/**
 * The key of a configuration: a hash of what decides which program answers (type, command, args,
 * env, cwd, url, headers). A stdio entry's relative command or arguments name different programs
 * in different folders, so its key includes the folder it starts in.
 */
export function eraFingerprint(config: ServerConfig, processCwd = process.cwd()): string {
  if (config.type === "http") return entryFingerprint({ type: config.type, url: config.url, headers: config.headers });
  const { type, command, args, env } = config;
  return entryFingerprint({ type, command, args, env, cwd: resolve(processCwd, config.cwd ?? ".") });
}

/** The valid records of a file's text; a corrupt file or record is skipped (debug line). */
function parseRecords(text: string | undefined, path: string): Record<string, EraRecord> {
  if (text === undefined || text.trim() === "") return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    log.debug(`${path} is not JSON (${(error as Error).message}); probing servers afresh`);
    return {};
  }
  if (!isPlainObject(parsed) || !isPlainObject(parsed.servers)) {
    log.debug(`${path} has unexpected content (no "servers" object); probing servers afresh`);
    return {};
  }
  const records: Record<string, EraRecord> = Object.create(null);
  let skipped = 0;
  for (const [key, value] of Object.entries(parsed.servers)) {
    const record = v.safeParse(StoredRecord, value);
    if (record.success) records[key] = record.output;
    else skipped++;
  }
  if (skipped > 0) log.debug(`${path}: ${skipped} unreadable record(s) skipped`);
  return records;
}

/** The `max` most recent records. */
function newest(records: Record<string, EraRecord>, max: number): Record<string, EraRecord> {
  const kept = Object.entries(records)
    .sort(([, a], [, b]) => b.at - a.at)
    .slice(0, max);
  return Object.fromEntries(kept);
}
