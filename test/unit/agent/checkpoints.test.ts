import { afterEach, beforeEach, expect, test } from "bun:test";
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { reply, text, toolUse } from "../../../fixtures/anthropic/messages-stand-in.ts";
import { createBuiltinTools } from "../../../src/agent/builtin-tools.ts";
import { FileCheckpoints, MAX_CHECKPOINT_FILE_BYTES } from "../../../src/agent/checkpoints/file-checkpoints.ts";
import { allowAll } from "../../../src/agent/permission.ts";
import { ToolRegistry } from "../../../src/agent/tool-registry.ts";
import { agentWith, stopAfterEach } from "../../helpers/loop-harness.ts";

stopAfterEach();
let project: string;
beforeEach(() => {
  project = mkdtempSync(join(tmpdir(), "cat-code-checkpoints-"));
});
afterEach(() => rmSync(project, { recursive: true, force: true }));

const read = (name: string) => (existsSync(join(project, name)) ? readFileSync(join(project, name), "utf8") : null);

test("the files write_file and edit_file change are kept per prompt; a rewind writes them back as they were before it", async () => {
  writeFileSync(join(project, "b.txt"), "b original\n");
  const store = join(project, "session.checkpoints.jsonl");
  const checkpoints = new FileCheckpoints(() => store);
  const registry = new ToolRegistry();
  for (const tool of createBuiltinTools({ cwd: project, checkpoints })) registry.register(tool);
  const agent = agentWith(
    [
      reply(toolUse("write_file", { path: "a.txt", content: "a one\n" })),
      reply(text("wrote a")),
      reply(toolUse("edit_file", { path: "a.txt", old_string: "one", new_string: "two" }), toolUse("write_file", { path: "b.txt", content: "b changed\n" }), toolUse("write_file", { path: "a.txt", content: "a three\n" })),
      reply(text("changed both")),
    ],
    registry,
    { permissions: allowAll },
  );
  checkpoints.beginPrompt("create a", agent.conversation.length);
  await agent.run("create a");
  checkpoints.beginPrompt("change  both\nfiles", agent.conversation.length);
  await agent.run("change both files");
  expect([read("a.txt"), read("b.txt")]).toEqual(["a three\n", "b changed\n"]);
  expect(checkpoints.list().map((p) => [p.ordinal, p.text, p.at, p.files.map((f) => f.path)])).toEqual([
    [1, "create a", 0, [join(project, "a.txt")]],
    // a.txt is kept once per prompt: its state before the prompt, not before its second change.
    [2, "change both files", 4, [join(project, "a.txt"), join(project, "b.txt")]],
  ]);

  expect(checkpoints.restoreFiles(2)).toEqual({ restored: [join(project, "a.txt"), join(project, "b.txt")], failed: [] });
  expect([read("a.txt"), read("b.txt")]).toEqual(["a one\n", "b original\n"]);
  // Before the first prompt, a.txt did not exist.
  checkpoints.restoreFiles(1);
  expect([read("a.txt"), read("b.txt")]).toEqual([null, "b original\n"]);

  // Saved beside the session, 0600: a resumed session has them, and a truncate holds there too.
  expect(statSync(store).mode & 0o777).toBe(0o600);
  checkpoints.truncate(2);
  const resumed = new FileCheckpoints(() => store);
  expect(resumed.list().map((p) => p.ordinal)).toEqual([1]);
  resumed.beginPrompt("next", 2);
  expect(resumed.list().map((p) => p.ordinal)).toEqual([1, 2]);
});

test("a file too large to keep is named, not restored; outside a prompt nothing is kept", () => {
  const checkpoints = new FileCheckpoints();
  const big = join(project, "big.bin");
  writeFileSync(big, Buffer.alloc(MAX_CHECKPOINT_FILE_BYTES + 1));
  checkpoints.beforeWrite(big);
  expect(checkpoints.list()).toEqual([]);
  checkpoints.beginPrompt("grow it", 0);
  checkpoints.beforeWrite(big);
  expect(checkpoints.restoreFiles(1)).toEqual({ restored: [], failed: [`${big} (larger than 1 MB: not kept)`] });
});
