import { afterEach, expect, test } from "bun:test";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseServerEntry } from "../../../src/mcp/config/load-config.ts";
import { ServerPool } from "../../../src/mcp/pool/server-pool.ts";
import { loadMemoryFiles, liveSystemPrompt } from "../../../src/repl/live-system-prompt.ts";
import { BUN, REPO } from "../../helpers/paths.ts";

const INSTRUCTIONS_SERVER = join(REPO, "fixtures/sdk-instructions-server.ts");

let pool: ServerPool | undefined;
let dir: string | undefined;
afterEach(async () => {
  await pool?.closeAll();
  pool = undefined;
  if (dir) rmSync(dir, { recursive: true, force: true });
});

test("the system prompt is made anew at each call: a server's instructions join it once the server is connected", async () => {
  dir = mkdtempSync(join(tmpdir(), "cat-code-session-prompt-"));
  mkdirSync(join(dir, ".git"));
  writeFileSync(join(dir, "AGENTS.md"), "Always run the linter.");
  pool = new ServerPool([
    parseServerEntry("docs", { command: BUN, args: [INSTRUCTIONS_SERVER, "Search before you fetch."] }, "flag", "test", {}),
    parseServerEntry("silent", { command: BUN, args: [INSTRUCTIONS_SERVER] }, "flag", "test", {}),
  ]);
  const memory = loadMemoryFiles(dir, { CAT_CODE_HOME: join(dir, "no-home") });
  const prompt = liveSystemPrompt({ cwd: dir, memory, pool });

  const before = prompt();
  expect(before).toContain(`<memory-file path="${join(dir, "AGENTS.md")}">\nAlways run the linter.\n</memory-file>`);
  expect(before).toContain("Git repository: yes.");
  expect(before).not.toContain("Search before you fetch.");

  await pool.connectAll();
  const after = prompt();
  expect(after).toContain('<server-instructions server="docs">\nSearch before you fetch.\n</server-instructions>');
  expect(after).not.toContain('server="silent"');
}, 30_000);
