import { beforeEach, expect, test } from "bun:test";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { reply, text, toolUse, type MessagesStandIn } from "../../../fixtures/anthropic/messages-stand-in.ts";
import { catCode } from "../../helpers/binary.ts";
import { childEnv, PipedCli } from "../../helpers/cli-process.ts";
import { replUnderTest } from "../../helpers/repl-under-test.ts";

/** Checkpoints outlive the process: a -p run changes files, a --continue REPL rewinds them with /rewind. */
const repl = replUnderTest();
let home: string;
let work: string;
let standIn: MessagesStandIn | undefined;
beforeEach(() => {
  home = repl.tempDir("cat-code-rewind-home-");
  work = repl.tempDir("cat-code-rewind-work-");
});

test("after --continue, /rewind lists the earlier prompts and restores files and conversation to before the chosen one", async () => {
  writeFileSync(join(work, "notes.txt"), "original\n");
  standIn = repl.startStandIn([
    reply(toolUse("write_file", { path: "notes.txt", content: "rewritten\n" }), toolUse("write_file", { path: "new.txt", content: "new\n" })),
    reply(text("Rewrote the notes.")),
    (request) => reply(text(`${request.body.messages.length} message(s) in`)),
  ]);
  const env = childEnv(home, { ANTHROPIC_API_KEY: "sk-test", ANTHROPIC_BASE_URL: standIn.url, CAT_CODE_MODEL: "claude-sonnet-5-5" });
  const first = Bun.spawn([...catCode(), "-p", "rewrite the notes", "--allow-all"], { cwd: work, env, stdin: "ignore", stdout: "pipe", stderr: "pipe" });
  expect(await first.exited).toBe(0);
  expect([readFileSync(join(work, "notes.txt"), "utf8"), existsSync(join(work, "new.txt"))]).toEqual(["rewritten\n", true]);

  const cli = repl.track(new PipedCli(["--continue"], { cwd: work, env }));
  await cli.waitFor("> ");
  cli.send("/rewind");
  let at = await cli.waitFor("Rewind to before which prompt? [1-1, Enter: none]");
  expect(cli.output).toContain("Prompts of this session (changes made by bash commands are not tracked):\n  1  rewrite the notes  (2 files changed)");
  cli.send("1");
  at = await cli.waitFor("Restore [c]onversation, [f]iles or [b]oth?", at);
  cli.send("b");
  at = await cli.waitFor("The conversation is back to before prompt 1 (0 message(s)).", at);
  expect(cli.output).toContain("Restored 2 file(s)");
  expect([readFileSync(join(work, "notes.txt"), "utf8"), existsSync(join(work, "new.txt"))]).toEqual(["original\n", false]);
  cli.send("what now?");
  await cli.waitFor("1 message(s) in", at);
  cli.end();
  expect(await cli.exited).toBe(0);
});
