import { expect, test } from "bun:test";
import { existsSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { reply, resultText, text, toolResultsOf, toolUse, type Step } from "../../../fixtures/anthropic/messages-stand-in.ts";
import { replUnderTest } from "../../helpers/repl-under-test.ts";

/** --allowedTools, --disallowedTools and --strict-mcp-config in the REPL, as Claude Code users type them. */
const repl = replUnderTest();
const answerWithResult: Step = (request) => reply(text(`result: ${resultText(toolResultsOf(request)[0]).trim()}`));

test("--allowedTools runs what it allows without a question; --disallowedTools refuses what it names; /permissions lists both as the command line's", async () => {
  repl.startStandIn([reply(toolUse("bash", { command: "echo allowed" })), answerWithResult, reply(toolUse("bash", { command: "touch PWNED" })), answerWithResult]);
  const cwd = repl.tempDir("cat-code-rule-flags-");
  const cli = repl.piped({ cwd, args: ["--allowedTools", "Bash(echo:*)", "--disallowedTools", "Bash(touch:*)"] });
  cli.send("say it");
  await cli.waitFor("result: allowed");
  cli.send("make a file");
  await cli.waitFor("result: Permission to use bash was denied by the rule Bash(touch:*)");
  cli.send("/permissions");
  await cli.waitFor("command line");
  cli.end();
  expect(await cli.exited).toBe(0);
  expect(cli.output).not.toContain("Allow bash");
  expect(existsSync(join(cwd, "PWNED"))).toBe(false);
  expect(cli.output).toMatch(/Bash\(echo:\*\).*command line/);
});

test("--strict-mcp-config without --mcp-config is a usage error naming what to add; with it, only that file's servers", async () => {
  repl.startStandIn([]);
  const lone = repl.piped({ mcpConfig: false, args: ["--strict-mcp-config"] });
  lone.end();
  expect(await lone.exited).toBe(2);
  expect(lone.output).toContain("--strict-mcp-config uses only the servers of --mcp-config <file>: give that file too");

  // The user's own servers are not started: only the given file's.
  const home = repl.tempDir("cat-code-strict-home-");
  writeFileSync(join(home, "mcp.json"), JSON.stringify({ mcpServers: { userwide: { command: "/nonexistent/user-server" } } }));
  const cli = repl.piped({ home, servers: { given: { command: "/nonexistent/given-server" } }, args: ["--strict-mcp-config"] });
  cli.send("/mcp");
  await cli.waitFor("given-server");
  cli.end();
  expect(await cli.exited).toBe(0);
  expect(cli.output).not.toContain("userwide");
});
