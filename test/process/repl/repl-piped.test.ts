import { beforeEach, expect, test } from "bun:test";
import { existsSync } from "node:fs";
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import {
  apiError,
  reply,
  resultText,
  text,
  toolResultsOf,
  toolUse,
  type MessagesStandIn,
} from "../../../fixtures/anthropic/messages-stand-in.ts";
import { findProcesses } from "../../helpers/processes.ts";
import { childEnv, PipedCli, REPO, waitForServers } from "../../helpers/cli-process.ts";
import { replUnderTest } from "../../helpers/repl-under-test.ts";

const repl = replUnderTest();
let dir: string;
let standIn: MessagesStandIn | undefined;
let cli: PipedCli | undefined;
beforeEach(async () => {
  dir = repl.tempDir("cat-code-piped-");
  await writeFile(join(dir, "mcp.json"), JSON.stringify({ mcpServers: { echo: { command: join(REPO, "fixtures/echo-server.sh") } } }));
});

test("piped stdin, one line per prompt: MCP tool turn, a declined permission, /clear, then end of input", async () => {
  standIn = repl.startStandIn([
    reply(toolUse("mcp__echo__echo", { text: "piped" })),
    (request) => reply(text(`echo said ${resultText(toolResultsOf(request)[0])}`)),
    reply(text("Writing the file."), toolUse("write_file", { path: "secret.txt", content: "x" })),
    (request) => reply(text(`Result: ${resultText(toolResultsOf(request)[0]).slice(0, 30)}`)),
    reply(text("fresh start")),
  ]);
  cli = repl.piped({ cwd: dir, home: join(dir, "home"), mcpConfig: join(dir, "mcp.json") });
  await cli.waitFor("> ");
  let at = await waitForServers(cli);
  expect(cli.output).toContain("MCP: 1 server(s), 1 tool(s) registered");

  cli.send("say piped");
  // readOnlyHint is the server's word, not a promise: the MCP tool is asked about.
  at = await cli.waitFor("Allow mcp__echo__echo? [y]es / [n]o / [a]lways for this tool in this project", at);
  cli.send("y");
  at = await cli.waitFor("echo said piped", at);
  expect(cli.output).toContain('⏺ mcp__echo__echo {"text":"piped"} → "piped"');

  cli.send("write the secret");
  at = await cli.waitFor("write_file wants to change secret.txt (a new file):\n  --- /dev/null\n  +++ secret.txt\n  @@ -0,0 +1 @@\n  +x\n", at);
  at = await cli.waitFor("Allow write_file? [y]es / [n]o / [a]lways for this tool", at);
  cli.send("n");
  // The user's no stops the turn; what they say instead goes to the model with the decline.
  at = await cli.waitFor("What should cat-code do instead?", at);
  cli.send("leave it");
  at = await cli.waitFor("Result: The user declined to run write", at);
  expect(standIn.requests[3]!.body.messages.at(-1)!.content.at(-1)).toMatchObject({ type: "text", text: "leave it" });
  expect(existsSync(join(dir, "secret.txt"))).toBe(false);
  expect(toolResultsOf(standIn.requests[3]!)[0]).toMatchObject({ is_error: true });

  cli.send("/clear");
  at = await cli.waitFor("Started a new conversation.", at);
  cli.send("hello again");
  at = await cli.waitFor("fresh start", at);
  expect(standIn.requests[4]!.body.messages).toEqual([{ role: "user", content: [{ type: "text", text: "hello again", cache_control: { type: "ephemeral" } }] }]);

  cli.end();
  expect(await cli.exited).toBe(0);
}, 20_000);

test("without ANTHROPIC_API_KEY the REPL starts, /tools works, a prompt gets a line naming the key", async () => {
  cli = repl.track(new PipedCli(["--mcp-config", join(dir, "mcp.json")], { cwd: dir, env: childEnv(join(dir, "home")) }));
  await cli.waitFor("> ");
  expect(cli.output).toContain("ANTHROPIC_API_KEY is not set");
  cli.send("hello");
  let at = await cli.waitFor("error: ANTHROPIC_API_KEY is not set: export ANTHROPIC_API_KEY=");
  cli.send("/tools");
  at = await cli.waitFor("Built-in:", at);
  await cli.waitFor("grep", at);
  cli.send("/exit");
  expect(await cli.exited).toBe(0);
});

test("an API error is one line (an unknown model's names where the model comes from) and the REPL stays usable", async () => {
  standIn = repl.startStandIn([apiError(400, "invalid_request_error", "model: unknown model 'nope'"), reply(text("recovered"))]);
  cli = repl.track(new PipedCli([], { cwd: dir, env: childEnv(join(dir, "home"), { ANTHROPIC_API_KEY: "k", ANTHROPIC_BASE_URL: standIn.url }) }));
  await cli.waitFor("> ");
  cli.send("first");
  const at = await cli.waitFor(`error: the model 'claude-sonnet-5-5' was not found: change --model, CAT_CODE_MODEL or "model" in settings.json\n`);
  cli.send("second");
  await cli.waitFor("recovered", at);
  cli.end();
  expect(await cli.exited).toBe(0);
});

test("SIGINT during a piped turn cancels the turn, not the REPL", async () => {
  standIn = repl.startStandIn([{ kind: "hang", text: "slow" }, reply(text("after"))]);
  cli = repl.track(new PipedCli([], { cwd: dir, env: childEnv(join(dir, "home"), { ANTHROPIC_API_KEY: "k", ANTHROPIC_BASE_URL: standIn.url }) }));
  await cli.waitFor("> ");
  cli.send("take your time");
  await standIn.hanging;
  cli.signal("SIGINT");
  const at = await cli.waitFor("⎿ Cancelled.");
  await standIn.hangAbandoned;
  cli.send("next");
  await cli.waitFor("after", at);
  cli.end();
  expect(await cli.exited).toBe(0);
});

/** A server that reads requests and never answers: connecting to it only ends by a timeout or close. */
async function writeSilentServer(): Promise<string> {
  const path = join(dir, "silent-server.sh");
  await writeFile(path, "#!/usr/bin/env bash\nwhile IFS= read -r line; do :; done\n", { mode: 0o755 });
  await writeFile(join(dir, "silent.json"), JSON.stringify({ mcpServers: { silent: { command: path } } }));
  return path;
}

test("a server that never answers does not hold up the prompt, and /exit still ends everything", async () => {
  const server = await writeSilentServer();
  cli = repl.track(new PipedCli(["--mcp-config", join(dir, "silent.json")], { cwd: dir, env: childEnv(join(dir, "home")) }));
  await cli.waitFor("> ", 0, 3_000);
  cli.send("/mcp");
  await cli.waitFor(`silent  PENDING  (stdio: ${server})`);
  const started = performance.now();
  cli.send("/exit");
  expect(await cli.exited).toBe(0);
  // Against a hang only: waiting for the server would take its 30 s connect timeout.
  expect(performance.now() - started).toBeLessThan(15_000);
  // cat-code waits for its servers to end before it exits: nothing to wait for here.
  expect(await findProcesses(server)).toEqual([]);
}, 40_000);

test("print mode waits for the servers only up to CAT_CODE_MCP_STARTUP_TIMEOUT, then answers without them", async () => {
  await writeSilentServer();
  standIn = repl.startStandIn([reply(text("answered anyway"))]);
  cli = repl.track(new PipedCli(["-p", "hi", "--mcp-config", join(dir, "silent.json")], {
    cwd: dir,
    env: childEnv(join(dir, "home"), { ANTHROPIC_API_KEY: "k", ANTHROPIC_BASE_URL: standIn.url, CAT_CODE_MCP_STARTUP_TIMEOUT: "300" }),
  }));
  const started = performance.now();
  expect(await cli.exited).toBe(0);
  // Against a hang only: without the 300 ms bound it would wait out the 30 s connect timeout.
  expect(performance.now() - started).toBeLessThan(15_000);
  expect(cli.output).toContain("answered anyway");
  expect(cli.output).toContain("MCP server 'silent' is not available: not ready within 300 ms");
  expect(standIn.requests[0]!.body.tools!.some((tool) => tool.name.startsWith("mcp__"))).toBe(false);
}, 40_000);

test("a server that announces new tools mid-session: the REPL says so and the next model request carries them", async () => {
  standIn = repl.startStandIn([
    reply(toolUse("mcp__grower__grow", {})),
    (request) => reply(text(`grow said ${resultText(toolResultsOf(request)[0])}`)),
    reply(text("noted")),
  ]);
  const config = join(dir, "grower.json");
  await writeFile(config, JSON.stringify({ mcpServers: { grower: { command: process.execPath, args: [join(REPO, "fixtures/chaos-server.ts"), "--growing", "--grow-waits-for-relist"] } } }));
  cli = repl.piped({ cwd: dir, home: join(dir, "home"), mcpConfig: config, args: ["--allow-all"] });
  await cli.waitFor("> ");
  let at = await waitForServers(cli);
  cli.send("grow a tool");
  at = await cli.waitFor("grow said added extra_1", at);
  // The server answered grow only after the client listed its tools again, so the news is there
  // by the next prompt (otherwise, on a busy machine, the new list could come after the next request).
  at = await cli.waitFor("MCP: grower now has 5 tool(s)", at);
  cli.send("what now?");
  at = await cli.waitFor("noted", at);
  expect(standIn.requests[0]!.body.tools!.map((tool) => tool.name)).not.toContain("mcp__grower__extra_1");
  expect(standIn.requests[2]!.body.tools!.map((tool) => tool.name)).toContain("mcp__grower__extra_1");
  cli.end();
  expect(await cli.exited).toBe(0);
}, 30_000);
