import { expect, test } from "bun:test";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { apiError, reply, text, toolUse } from "../../../fixtures/anthropic/messages-stand-in.ts";
import { replUnderTest } from "../../helpers/repl-under-test.ts";
import { childEnv, PipedCli } from "../../helpers/cli-process.ts";

/** /rewind through the agent loop: the real SDK against the Messages stand-in, tools writing real files. */
const repl = replUnderTest();

test("two prompts edit files; /rewind to before the second restores the files, and the next request lacks the second prompt, also after --continue", async () => {
  const home = repl.tempDir("cat-code-rewind-home-");
  const work = repl.tempDir("cat-code-rewind-work-");
  writeFileSync(join(work, "notes.txt"), "v0\n");
  const standIn = repl.startStandIn([
    reply(toolUse("edit_file", { path: "notes.txt", old_string: "v0", new_string: "v1" })),
    reply(text("Edited once.")),
    reply(toolUse("write_file", { path: "made/new.txt", content: "new\n" }), toolUse("edit_file", { path: "notes.txt", old_string: "v1", new_string: "v2" })),
    reply(text("Edited twice.")),
    reply(text("Third answer.")),
    reply(text("Fourth answer.")),
  ]);
  const cli = repl.piped({ home, cwd: work, mcpConfig: false, args: ["--allow-all"] });
  cli.send("first prompt");
  let at = await cli.waitFor("Edited once.");
  cli.send("second prompt");
  at = await cli.waitFor("Edited twice.", at);
  expect([readFileSync(join(work, "notes.txt"), "utf8"), existsSync(join(work, "made/new.txt"))]).toEqual(["v2\n", true]);

  cli.send("/rewind");
  at = await cli.waitFor("Rewind to before which prompt? [1-2, Enter: none]", at);
  expect(cli.output.slice(at - 400)).toContain("changes made by bash commands are not.");
  expect(cli.output).toMatch(/ {2}1 {2}\d\d:\d\d {2}2 file\(s\) {2}second prompt\n {2}2 {2}\d\d:\d\d {2}1 file\(s\) {2}first prompt\n/);
  cli.send("1");
  at = await cli.waitFor("Restore 1) conversation and files  2) conversation only  3) files only [1-3, Enter: none]", at);
  cli.send("1");
  at = await cli.waitFor("The conversation is back to before: second prompt (4 message(s) kept).", at);
  expect(cli.output).toContain("Restored 1 file(s): notes.txt\n");
  expect(cli.output).toContain("Removed 1 file(s) the session had created: made/new.txt\n");
  expect([readFileSync(join(work, "notes.txt"), "utf8"), existsSync(join(work, "made/new.txt"))]).toEqual(["v1\n", false]);

  cli.send("third prompt");
  at = await cli.waitFor("Third answer.", at);
  const sent = JSON.stringify(standIn.requests[4]!.body.messages);
  expect(standIn.requests[4]!.body.messages.map((message) => message.role)).toEqual(["user", "assistant", "user", "assistant", "user"]);
  expect(sent).toContain("first prompt");
  expect(sent).toContain("third prompt");
  expect(sent).not.toContain("second prompt");
  cli.send("/exit");
  expect(await cli.exited).toBe(0);

  // The session file recorded the rewind: going on with it sends the rewound conversation.
  const resumed = new PipedCli(["--continue", "-p", "fourth prompt"], { cwd: work, env: childEnv(home, { ANTHROPIC_API_KEY: "sk-test", ANTHROPIC_BASE_URL: standIn.url }) });
  repl.track(resumed);
  expect(await resumed.exited).toBe(0);
  const continued = JSON.stringify(standIn.requests[5]!.body.messages);
  expect(continued).toContain("third prompt");
  expect(continued).not.toContain("second prompt");
}, 60_000);

test("prompts that never ran are not listed by /rewind: one a UserPromptSubmit hook blocked, one whose request failed", async () => {
  const home = repl.tempDir("cat-code-rewind-home-");
  const work = repl.tempDir("cat-code-rewind-work-");
  writeFileSync(join(work, "notes.txt"), "v0\n");
  const block = `grep -q forbidden && { echo "not this one" >&2; exit 2; }; exit 0`;
  writeFileSync(join(home, "settings.json"), JSON.stringify({ hooks: { UserPromptSubmit: [{ hooks: [{ type: "command", command: block }] }] } }));
  repl.startStandIn([reply(toolUse("edit_file", { path: "notes.txt", old_string: "v0", new_string: "v1" })), reply(text("Edited once.")), apiError(400, "invalid_request_error", "bad request")]);
  const cli = repl.piped({ home, cwd: work, mcpConfig: false, args: ["--allow-all"] });
  cli.send("first prompt");
  let at = await cli.waitFor("Edited once.");
  cli.send("a failing prompt");
  at = await cli.waitFor("(the prompt was not kept in the conversation", at);
  cli.send("a forbidden prompt");
  at = await cli.waitFor("not this one", at);
  cli.send("/rewind");
  at = await cli.waitFor("Rewind to before which prompt? [1-1, Enter: none]", at);
  expect(cli.output.slice(at - 300)).toMatch(/ {2}1 {2}\d\d:\d\d {2}1 file\(s\) {2}first prompt\n/);
  expect(cli.output).not.toMatch(/\d\d:\d\d {2}0 file\(s\) {2}a (failing|forbidden) prompt/);
  cli.send("");
  await cli.waitFor("Nothing was rewound.", at);
  cli.send("/exit");
  expect(await cli.exited).toBe(0);
}, 60_000);
