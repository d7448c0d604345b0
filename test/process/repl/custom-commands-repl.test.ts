import { expect, test } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { reply, resultText, text, toolResultsOf, toolUse, type Step } from "../../../fixtures/anthropic/messages-stand-in.ts";
import { replUnderTest } from "../../helpers/repl-under-test.ts";

/** Claude Code's custom commands in the REPL: what the model receives, /help, and allowed-tools. */
const repl = replUnderTest();
const answerWithResult: Step = (request) => reply(text(`result: ${resultText(toolResultsOf(request)[0]).trim()}`));

function write(path: string, content: string): void {
  mkdirSync(join(path, ".."), { recursive: true });
  writeFileSync(path, content);
}

test("a project's .claude/commands file is a slash command: the model receives its prompt with the arguments filled in", async () => {
  const standIn = repl.startStandIn([reply(text("Reviewed."))]);
  const cwd = repl.tempDir("cat-code-custom-project-");
  write(join(cwd, ".claude", "commands", "frontend", "review.md"), "---\ndescription: Review a component\nargument-hint: <file> <focus>\n---\nReview $1, focusing on $2.\nAll: $ARGUMENTS");
  const cli = repl.piped({ cwd });
  cli.send("/help");
  await cli.waitFor("Custom commands");
  cli.send(`/frontend:review src/App.tsx "error handling"`);
  await cli.waitFor("Reviewed.");
  cli.end();
  expect(await cli.exited).toBe(0);
  expect(cli.output).toMatch(/\/frontend:review <file> <focus> +Review a component/);
  expect(standIn.requests[0]!.body.messages).toMatchObject([
    { role: "user", content: [{ type: "text", text: `Review src/App.tsx, focusing on error handling.\nAll: src/App.tsx "error handling"` }] },
  ]);
  expect(standIn.requests[0]!.body.messages).toHaveLength(1);
});

test("a user's command (in the app home) runs its allowed-tools without a question, for its own turn only", async () => {
  repl.startStandIn([reply(toolUse("bash", { command: "printf granted" })), answerWithResult, reply(toolUse("bash", { command: "printf again" })), answerWithResult]);
  const home = repl.tempDir("cat-code-custom-home-");
  write(join(home, "commands", "greet.md"), "---\nallowed-tools: Bash(printf:*)\n---\nSay it with printf.");
  const cli = repl.piped({ home });
  cli.send("/greet");
  await cli.waitFor("result: granted");
  // The next prompt is not the command's: the same call is asked about (and piped input answers no).
  cli.send("once more");
  cli.send("n");
  await cli.waitFor("The user declined to run bash");
  expect(cli.output).toContain("Allow bash?");
  expect(cli.output.indexOf("Allow bash?")).toBeGreaterThan(cli.output.indexOf("result: granted"));
  cli.end();
  expect(await cli.exited).toBe(0);
});
