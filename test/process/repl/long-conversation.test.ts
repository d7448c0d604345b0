import { beforeEach, expect, test } from "bun:test";
import { join } from "node:path";
import { replyWithUsage, text, type RecordedRequest } from "../../../fixtures/anthropic/messages-stand-in.ts";
import { costOf } from "../../../src/agent/usage-meter.ts";
import { addUsage, emptyUsage, type TokenUsage } from "../../../src/agent/usage.ts";
import { replUnderTest } from "../../helpers/repl-under-test.ts";

/**
 * Issue 15's "done": a 200-turn conversation through the stand-in, compacted automatically as it
 * nears the context window, resumed in a new process, and /cost adding up over both processes.
 */
const repl = replUnderTest();
let dir: string;
beforeEach(() => {
  dir = repl.tempDir("cat-code-long-");
});

const MODEL = "claude-haiku-4-5"; // a 200K window; $1 in, $5 out, $0.10 cache read, $1.25 cache write per million
const TURNS = 200;
/** Every 40th answer reports a prompt of 180K tokens: past 85% of the window, so the next prompt compacts first. */
const FULL_EVERY = 40;

function isSummaryRequest(request: RecordedRequest): boolean {
  return JSON.stringify(request.body.messages.at(-1)).includes("write a summary of the conversation so far");
}

test("200 turns with auto-compaction, resumed in a new process: the conversation goes on from the summary and /cost adds up", async () => {
  let spent = emptyUsage();
  let summaries = 0;
  const answer = (request: RecordedRequest) => {
    const prompt = JSON.stringify(request.body.messages.at(-1));
    const turn = Number(/turn (\d+)/.exec(prompt)?.[1] ?? 0);
    const usage: TokenUsage = isSummaryRequest(request)
      ? { input: 3_000, output: 400, cacheRead: 0, cacheWrite: 0 }
      : { input: turn % FULL_EVERY === 0 ? 180_000 : 1_000 + turn, output: 20, cacheRead: 500, cacheWrite: 50 };
    spent = addUsage(spent, usage);
    const reply = isSummaryRequest(request) ? `summary ${++summaries}` : `answer ${turn}`;
    return replyWithUsage({ input_tokens: usage.input, output_tokens: usage.output, cache_read_input_tokens: usage.cacheRead, cache_creation_input_tokens: usage.cacheWrite }, text(reply));
  };
  const standIn = repl.startStandIn(Array.from({ length: TURNS + 20 }, () => answer));
  const start = (args: string[]) => repl.piped({ cwd: dir, home: join(dir, "home"), configDir: dir, args, env: { CAT_CODE_MODEL: MODEL } });

  let cli = start([]);
  let at = await cli.waitFor("> ");
  for (let turn = 1; turn <= TURNS; turn++) {
    cli.send(`turn ${turn}`);
    at = await cli.waitFor(`answer ${turn}\n`, at);
  }
  cli.end();
  expect(await cli.exited).toBe(0);
  // Compacted after each full prompt (turns 40, 80, 120, 160: the 200th is the last turn).
  expect(summaries).toBe(4);
  expect(standIn.requests).toHaveLength(TURNS + 4);
  // Never more than 40 turns of messages sent: each compaction started the conversation again from its summary.
  expect(Math.max(...standIn.requests.map((r) => r.body.messages.length))).toBeLessThanOrEqual(2 * FULL_EVERY + 1);
  const requestsBefore = standIn.requests.length;

  cli = start(["--continue"]);
  at = await cli.waitFor("> turn 200\n⏺ answer 200\n");
  cli.send("/cost");
  const cost = costOf(MODEL, spent)!;
  at = await cli.waitFor(`Cost: $${cost >= 1 ? cost.toFixed(2) : cost.toFixed(4)}\n`, at);
  const n = (count: number) => count.toLocaleString("en-US");
  at = await cli.waitFor(`  tokens: ${n(spent.input)} input · ${n(spent.output)} output · ${n(spent.cacheRead)} cache read · ${n(spent.cacheWrite)} cache write\n`, at);

  cli.send("turn 201");
  at = await cli.waitFor("answer 201\n", at);
  const resumed = standIn.requests[requestsBefore]!.body.messages;
  // The last summary, then turns 161..200 as they were, then the new prompt.
  expect(JSON.stringify(resumed[0])).toContain("summary 4");
  expect(JSON.stringify(resumed.at(-2))).toContain("answer 200");
  expect(JSON.stringify(resumed.at(-1))).toContain("turn 201");
  cli.end();
  expect(await cli.exited).toBe(0);
}, 180_000);
