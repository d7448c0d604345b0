import { afterEach, beforeEach, expect, test } from "bun:test";
import { mkdtemp, rm } from "node:fs/promises";
import { readFileSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { reply, resultText, startMessagesStandIn, text, toolResultsOf, toolUse, type MessagesStandIn, type Step } from "../../../fixtures/anthropic/messages-stand-in.ts";
import { EVERYTHING_SERVER, writeConfig } from "../../helpers/paths.ts";
import { BUN, childEnv } from "../../helpers/cli-process.ts";
import { catCode } from "../../helpers/binary.ts";

/** Tool outputs past their limit, as the model receives them at the Messages API stand-in: head, tail, and the saved file's path. */
let home: string;
let config: string;
let standIn: MessagesStandIn | undefined;
beforeEach(async () => {
  home = await mkdtemp(join(tmpdir(), "cat-code-huge-"));
  config = writeConfig({ everything: { command: BUN, args: [EVERYTHING_SERVER, "stdio"] } }, home);
});
afterEach(async () => {
  await standIn?.stop();
  standIn = undefined;
  await rm(home, { recursive: true, force: true });
});

async function print(prompt: string, steps: Step[], env: Record<string, string> = {}) {
  standIn = startMessagesStandIn(steps, { apiKey: "sk-test" });
  const childEnvironment = childEnv(home, { ANTHROPIC_API_KEY: "sk-test", ANTHROPIC_BASE_URL: standIn.url, ...env });
  const child = Bun.spawn([...catCode(), "-p", prompt, "--mcp-config", config, "--allow-all"], { cwd: home, env: childEnvironment, stdin: "ignore", stdout: "pipe", stderr: "pipe" });
  const [stdout, stderr, code] = await Promise.all([new Response(child.stdout).text(), new Response(child.stderr).text(), child.exited]);
  return { stdout, stderr, code, requests: standIn.requests };
}

const SAVED = /is saved in (\S+\.txt); read it with read_file/;

test("a bash output and an MCP result past their limits reach the model as head and tail with the saved file's path; the files hold the whole", async () => {
  const bash = "seq 1 60000; echo the-error-at-the-end >&2; exit 3";
  const { code, stderr, requests } = await print(
    "run them",
    [reply(toolUse("bash", { command: bash }, "toolu_bash"), toolUse("mcp__everything__echo", { message: "m".repeat(9_000) + "END" }, "toolu_echo")), reply(text("done"))],
    { MAX_MCP_OUTPUT_TOKENS: "1000" },
  );
  expect(code).toBe(0);
  const [bashResult, echoResult] = toolResultsOf(requests[1]!);

  const bashText = resultText(bashResult);
  expect(bashText.length).toBeLessThan(101_000);
  expect(bashText).toStartWith("1\n2\n3\n");
  expect(bashText).toEndWith("59999\n60000\n[stderr]\nthe-error-at-the-end\n[exit code: 3]");
  const bashFile = SAVED.exec(bashText)?.[1];
  expect(bashFile).toStartWith(join(home, "sessions"));
  expect(bashFile).toEndWith("/tool-outputs/toolu_bash.txt");
  const whole = readFileSync(bashFile!, "utf8");
  expect(whole).toStartWith("1\n2\n");
  expect(whole).toContain("\n30000\n");
  expect(whole).toEndWith("60000\n[stderr]\nthe-error-at-the-end\n[exit code: 3]");
  expect(statSync(bashFile!).mode & 0o777).toBe(0o600);
  expect(bashText).toContain(`The whole output (${whole.length.toLocaleString("en-US")} characters, 60,003 lines)`);

  // MAX_MCP_OUTPUT_TOKENS=1000: about 4,000 characters of the MCP tool's result.
  const echoText = resultText(echoResult);
  expect(echoText.length).toBeLessThanOrEqual(4_000);
  expect(echoText).toStartWith("Echo: mmm");
  expect(echoText).toEndWith("mmmEND");
  expect(readFileSync(SAVED.exec(echoText)![1]!, "utf8")).toBe(`Echo: ${"m".repeat(9_000)}END`);

  // One line each for the user, on stderr in print mode.
  expect(stderr).toMatch(/⚠ bash: output too large \([\d.]+ KB, 60,003 lines\); the model got its head and tail, the whole is in \S+toolu_bash\.txt/);
  expect(stderr).toMatch(/⚠ mcp__everything__echo: output too large \(8\.8 KB, 1 lines\)/);
}, 60_000);

test("a bad MAX_MCP_OUTPUT_TOKENS is refused, naming the variable and what it takes", async () => {
  const { code, stderr, requests } = await print("hi", [reply(text("never"))], { MAX_MCP_OUTPUT_TOKENS: "lots" });
  expect(code).not.toBe(0);
  expect(stderr).toContain("MAX_MCP_OUTPUT_TOKENS must be a whole number of tokens of at least 1, got 'lots'");
  expect(requests).toHaveLength(0);
}, 60_000);
