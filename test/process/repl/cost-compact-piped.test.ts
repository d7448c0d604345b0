import { beforeEach, expect, test } from "bun:test";
import { join } from "node:path";
import { apiError, reply, replyWithUsage, text } from "../../../fixtures/anthropic/messages-stand-in.ts";
import type { PipedCli } from "../../helpers/cli-process.ts";
import { replUnderTest } from "../../helpers/repl-under-test.ts";

const repl = replUnderTest();
let dir: string;
beforeEach(() => {
  dir = repl.tempDir("cat-code-cost-");
});

function start(): PipedCli {
  return repl.piped({ cwd: dir, home: join(dir, "home"), configDir: dir, env: { CAT_CODE_MODEL: "claude-haiku-4-5" } });
}

test("/cost shows the stand-in's tokens, cache reads and writes included, and their price; /compact replaces the conversation", async () => {
  const standIn = repl.startStandIn([
    replyWithUsage({ input_tokens: 1_000, output_tokens: 1_000, cache_read_input_tokens: 100_000, cache_creation_input_tokens: 8_000 }, text("first answer")),
    reply(text("the summary")),
    reply(text("after the summary")),
  ]);
  const cli = start();
  let at = await cli.waitFor("> ");
  cli.send("/cost");
  at = await cli.waitFor("No model requests yet", at);

  cli.send("hello");
  at = await cli.waitFor("first answer", at);
  cli.send("/cost");
  // Claude Haiku 4.5: $1 in, $5 out, $0.10 cache read, $1.25 cache write per million tokens.
  at = await cli.waitFor("Cost: $0.0260\n", at);
  at = await cli.waitFor("  tokens: 1,000 input · 1,000 output · 100,000 cache read · 8,000 cache write\n", at);

  cli.send("/compact keep the greeting");
  at = await cli.waitFor("Compacted the conversation into a summary: 2 messages → 1.", at);
  expect(JSON.stringify(standIn.requests[1]!.body.messages)).toContain("keep the greeting");
  cli.send("/cost");
  // The summary request's tokens count too (the stand-in reports 25 in, 12 out).
  at = await cli.waitFor("Cost: $0.0261\n", at);

  cli.send("go on");
  at = await cli.waitFor("after the summary", at);
  expect(standIn.requests[2]!.body.messages).toHaveLength(1);
  expect(JSON.stringify(standIn.requests[2]!.body.messages[0])).toContain("the summary");
  cli.end();
  expect(await cli.exited).toBe(0);
}, 20_000);

test("a prompt whose request failed is not kept: the REPL says so, and the next request leaves it out", async () => {
  const standIn = repl.startStandIn([reply(text("one")), apiError(400, "invalid_request_error", "messages: image too big"), reply(text("three"))]);
  const cli = start();
  let at = await cli.waitFor("> ");
  cli.send("first");
  at = await cli.waitFor("one", at);
  cli.send("broken prompt");
  at = await cli.waitFor("error: the Anthropic API refused the request (400 invalid_request_error): messages: image too big", at);
  at = await cli.waitFor("(the prompt was not kept in the conversation: press Up to edit it and send it again)", at);
  cli.send("third");
  at = await cli.waitFor("three", at);
  expect(JSON.stringify(standIn.requests[2]!.body.messages)).not.toContain("broken prompt");
  expect(standIn.requests[2]!.body.messages).toHaveLength(3);
  cli.end();
  expect(await cli.exited).toBe(0);
}, 20_000);

test("a /compact that fails says so and keeps the conversation", async () => {
  const standIn = repl.startStandIn([reply(text("one")), apiError(400, "invalid_request_error", "no summary today"), reply(text("two"))]);
  const cli = start();
  let at = await cli.waitFor("> ");
  cli.send("first");
  at = await cli.waitFor("one", at);
  cli.send("/compact");
  at = await cli.waitFor("error: the Anthropic API refused the request (400 invalid_request_error): no summary today (compaction failed: the conversation was kept as it was)", at);
  cli.send("second");
  at = await cli.waitFor("two", at);
  expect(standIn.requests[2]!.body.messages).toHaveLength(3);
  cli.end();
  expect(await cli.exited).toBe(0);
}, 20_000);
