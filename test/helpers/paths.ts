import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

export const REPO = join(import.meta.dir, "..", "..");
/** The Bun running the tests: fixtures written in TypeScript run with it. */
export const BUN = process.execPath;
export const ECHO_SERVER = join(REPO, "fixtures", "echo-server.sh");
export const CHAOS_SERVER = join(REPO, "fixtures", "chaos-server.ts");
export const SDK_STDIO_SERVER = join(REPO, "fixtures", "sdk-stdio-server.ts");
/** Ours, speaking only the 2026-07-28 revision (`--stdio` or `--http`). */
export const MODERN_SERVER = join(REPO, "fixtures", "modern", "modern-server.ts");
/** The official SDK v2 server, serving both revisions (`--stdio` or `--http`). */
export const SDK_V2_SERVER = join(REPO, "fixtures", "sdk-v2", "sdk-v2-server.ts");
export const EVERYTHING_SERVER = join(REPO, "node_modules", "@modelcontextprotocol", "server-everything", "dist", "index.js");

export function tempDir(prefix = "cat-code-test-"): string {
  return mkdtempSync(join(tmpdir(), prefix));
}

/** Writes an mcp.json into a fresh temp dir and returns its path. */
export function writeConfig(servers: Record<string, unknown>, dir = tempDir()): string {
  const path = join(dir, "mcp.json");
  writeFileSync(path, JSON.stringify({ mcpServers: servers }, null, 2));
  return path;
}

/** A number no other test uses, to find a test's processes with pgrep. */
export function uniqueSeconds(): string {
  return `300.${Math.floor(Math.random() * 1e9)}`;
}
