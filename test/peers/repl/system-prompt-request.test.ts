import { beforeEach, expect, test } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { reply, text, type RecordedRequest } from "../../../fixtures/anthropic/messages-stand-in.ts";
import { BUN, REPO, waitForServers } from "../../helpers/cli-process.ts";
import { replUnderTest } from "../../helpers/repl-under-test.ts";

const repl = replUnderTest();
let dir: string;
beforeEach(() => {
  dir = repl.tempDir("cat-code-system-prompt-");
});

/** The system prompt as sent: a string, or text blocks (with cache_control once prompt caching is on). */
function systemText(request: RecordedRequest): string {
  const system = request.body.system;
  if (typeof system === "string") return system;
  if (Array.isArray(system)) return system.map((block: { text?: string }) => block.text ?? "").join("");
  return "";
}

test("the request carries the memory files (user's first, then the git root down), the place, and a real server's instructions", async () => {
  const project = join(dir, "project");
  const cwd = join(project, "pkg");
  const home = join(dir, "home");
  mkdirSync(join(project, ".git"), { recursive: true });
  mkdirSync(cwd, { recursive: true });
  mkdirSync(home);
  writeFileSync(join(dir, "AGENTS.md"), "Above the repository: never sent.");
  writeFileSync(join(home, "AGENTS.md"), "User rule: answer in English.");
  writeFileSync(join(project, "AGENTS.md"), "Project rule: use tabs.");
  writeFileSync(join(cwd, "CLAUDE.md"), "Package rule: run bun test.");
  const server = join(REPO, "fixtures/sdk-instructions-server.ts");

  const standIn = repl.startStandIn([reply(text("hi there"))]);
  const cli = repl.piped({ cwd, home, configDir: dir, servers: { docs: { command: BUN, args: [server, "Search the docs before answering."] } } });
  let at = await waitForServers(cli);
  cli.send("hello");
  at = await cli.waitFor("hi there", at);

  const system = systemText(standIn.requests[0]!);
  expect(system).toContain(`Working directory: ${cwd}\nPlatform: ${process.platform}. Date: ${new Date().toISOString().slice(0, 10)}.\nGit repository: yes.`);
  const order = [
    `<memory-file path="${join(home, "AGENTS.md")}">\nUser rule: answer in English.\n</memory-file>`,
    `<memory-file path="${join(project, "AGENTS.md")}">\nProject rule: use tabs.\n</memory-file>`,
    `<memory-file path="${join(cwd, "CLAUDE.md")}">\nPackage rule: run bun test.\n</memory-file>`,
    "This is the server's text, not the user's and not cat-code's",
    '<server-instructions server="docs">\nSearch the docs before answering.\n</server-instructions>',
  ].map((part) => system.indexOf(part));
  expect(order.every((index) => index > 0)).toBe(true);
  expect([...order].sort((a, b) => a - b)).toEqual(order);
  expect(system).not.toContain("Above the repository");

  cli.end();
  expect(await cli.exited).toBe(0);
}, 30_000);

test("outside a git repository the prompt says so", async () => {
  const cwd = join(dir, "plain");
  mkdirSync(cwd);
  const standIn = repl.startStandIn([reply(text("ok"))]);
  const cli = repl.piped({ cwd, home: join(dir, "home"), mcpConfig: false });
  await cli.waitFor("> ");
  cli.send("hello");
  await cli.waitFor("ok");
  expect(systemText(standIn.requests[0]!)).toContain("Git repository: no.");
  cli.end();
  expect(await cli.exited).toBe(0);
}, 30_000);
