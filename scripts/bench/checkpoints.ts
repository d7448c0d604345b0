/**
 * Checkpoints: what journaling costs an edit, and how long reading the list back and a rewind take.
 * 200 files of 100 KB, 10 prompts that each edit every file with edit_file (in process, the tool as
 * the agent runs it), against the same edits without a journal; then the list read back by a new
 * SessionCheckpoints (as after --resume) and the files rewound to before the first prompt.
 * 5 rounds, medians. Run: `bun scripts/bench/checkpoints.ts`.
 */
import { mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { SessionCheckpoints } from "../../src/agent/checkpoints/session-checkpoints.ts";
import { EditFileTool } from "../../src/agent/tools/edit-file-tool.ts";
import { formatMs, median } from "./stats.ts";

const FILES = 200;
const FILE_BYTES = 100_000;
const PROMPTS = 10;
const ROUNDS = 5;

async function round(): Promise<{ plain: number; journaled: number; list: number; rewind: number; restored: number }> {
  const work = realpathSync(mkdtempSync(join(tmpdir(), "cat-code-bench-checkpoints-")));
  const session = join(work, ".session");
  try {
    for (let i = 0; i < FILES; i++) writeFileSync(join(work, `f${i}.ts`), `// file ${i}\n${"x".repeat(FILE_BYTES)}\nMARK0\n`);
    const editAll = async (tool: EditFileTool, from: string, to: string) => {
      for (let i = 0; i < FILES; i++) await tool.execute({ path: `f${i}.ts`, old_string: from, new_string: to });
    };
    const plainTool = new EditFileTool(work);
    let start = performance.now();
    await editAll(plainTool, "MARK0", "MARKp");
    const plain = performance.now() - start;
    await editAll(plainTool, "MARKp", "MARK0");

    const checkpoints = new SessionCheckpoints({ sessionFolder: () => session });
    const tool = new EditFileTool(work, checkpoints);
    start = performance.now();
    for (let p = 1; p <= PROMPTS; p++) {
      checkpoints.beginPrompt(`prompt ${p}`, []);
      await editAll(tool, `MARK${p - 1}`, `MARK${p}`);
    }
    const journaled = (performance.now() - start) / PROMPTS;
    start = performance.now();
    const prompts = new SessionCheckpoints({ sessionFolder: () => session }).prompts();
    const list = performance.now() - start;
    start = performance.now();
    const report = await checkpoints.rewindFiles(prompts.at(-1)!);
    return { plain, journaled, list, rewind: performance.now() - start, restored: report.restored.length };
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

const rounds: Array<Awaited<ReturnType<typeof round>>> = [];
for (let i = 0; i < ROUNDS; i++) rounds.push(await round());
const of = (key: "plain" | "journaled" | "list" | "rewind") => formatMs(median(rounds.map((r) => r[key])));
console.log(`| ${FILES} edits of ${FILE_BYTES / 1000} KB files, no journal | ${of("plain")} |`);
console.log(`| the same edits, journaled (one prompt) | ${of("journaled")} |`);
console.log(`| the list read back (${PROMPTS} prompts, as after --resume) | ${of("list")} |`);
console.log(`| rewind of ${rounds[0]!.restored} files to before the first prompt | ${of("rewind")} |`);
