/**
 * JSON that cat-code prints (`mcp list|get --json`, `mcp keeper status --json`, `-p --output-format json`
 * and `stream-json`) carries what servers, project files and the model wrote. JSON.stringify leaves C1
 * and bidi characters raw, so `cat`ting it to a terminal could act on them; they come out as \u
 * escapes, and the parsed document is the same.
 */
import { afterAll, afterEach, beforeAll, expect, test } from "bun:test";
import { reply, startMessagesStandIn, text, type MessagesStandIn } from "../../../fixtures/anthropic/messages-stand-in.ts";
import { ScriptedServer } from "../../../fixtures/http/scripted-server.ts";
import type { Subprocess } from "bun";
import { catCode, run, runBinary } from "../../helpers/binary.ts";
import { ECHO_SERVER, tempDir, writeConfig } from "../../helpers/paths.ts";
import { endKeeperProcess, startKeeperProcess, stdioServer, TestKeeperClient } from "../../helpers/keeper-test-client.ts";

const HOSTILE = "no \u009b2J way \u202eevil\u202c";
const RAW = /[\u0080-\u009f\u202a-\u202e\u2066-\u2069]/;

let refusing: ScriptedServer;
beforeAll(() => {
  refusing = new ScriptedServer(({ method, body }) =>
    method === "POST" && body?.method === "initialize" ? Response.json({ jsonrpc: "2.0", id: body.id, error: { code: -32603, message: HOSTILE } }) : undefined,
  );
});
afterAll(async () => {
  await refusing.stop();
});

let standIn: MessagesStandIn | undefined;
let keeper: Subprocess | undefined;
afterEach(async () => {
  await standIn?.stop();
  standIn = undefined;
  if (keeper) await endKeeperProcess(keeper);
  keeper = undefined;
});

test("mcp list --json: a server's C1 and bidi characters are \\u escapes, and the reason parses back whole", async () => {
  const config = writeConfig({ bad: { url: refusing.url } });
  const { exitCode, stdout } = await runBinary(["mcp", "list", "--json", "--no-keeper", "--mcp-config", config], { env: { CAT_CODE_HOME: tempDir() } });
  expect(exitCode).toBe(0);
  expect(stdout).not.toMatch(RAW);
  expect(stdout).toContain("\\u009b2J");
  expect(stdout).toContain("\\u202eevil\\u202c");
  expect(JSON.parse(stdout).servers[0].reason).toContain(HOSTILE);
});

test("mcp get --json: an entry's C1 and bidi characters are \\u escapes, and the entry parses back whole", async () => {
  const config = writeConfig({ bad: { url: refusing.url, note: HOSTILE } });
  const { exitCode, stdout } = await runBinary(["mcp", "get", "bad", "--json", "--mcp-config", config], { env: { CAT_CODE_HOME: tempDir() } });
  expect(exitCode).toBe(0);
  expect(stdout).not.toMatch(RAW);
  expect(stdout).toContain("\\u009b2J");
  const json = JSON.parse(stdout);
  expect(json.entry.note).toBe(HOSTILE);
  expect(json.status.reason).toContain(HOSTILE);
});

test("mcp keeper status --json: a server's arguments with C1 and bidi characters are \\u escapes, and parse back whole", async () => {
  const started = await startKeeperProcess();
  keeper = started.process;
  const client = await TestKeeperClient.greeted(started.paths);
  await client.request({ op: "connect", servers: [stdioServer("echo", ECHO_SERVER, [HOSTILE])], roots: [process.cwd()] });
  client.close();
  const { exitCode, stdout } = await runBinary(["mcp", "keeper", "status", "--json"], { env: { CAT_CODE_HOME: started.home } });
  expect(exitCode).toBe(0);
  expect(stdout).not.toMatch(RAW);
  expect(stdout).toContain("\\u202eevil\\u202c");
  expect(JSON.parse(stdout).connections[0].description).toContain(HOSTILE);
}, 20_000);

for (const format of ["json", "stream-json"]) {
  test(`-p --output-format ${format}: the model's C1 and bidi characters are \\u escapes, and parse back whole`, async () => {
    standIn = startMessagesStandIn([reply(text(`answer: ${HOSTILE}`))], { apiKey: "sk-test" });
    const env = { PATH: process.env.PATH ?? "", CAT_CODE_HOME: tempDir(), ANTHROPIC_API_KEY: "sk-test", ANTHROPIC_BASE_URL: standIn.url, NO_COLOR: "1" };
    const { exitCode, stdout } = await run([...catCode(), "-p", "hi", "--output-format", format], { env, cwd: tempDir() });
    expect(exitCode).toBe(0);
    expect(stdout).not.toMatch(RAW);
    expect(stdout).toContain("\\u009b2J way \\u202eevil\\u202c");
    const last = JSON.parse(stdout.trim().split("\n").at(-1) as string);
    expect(last.result).toBe(`answer: ${HOSTILE}`);
  });
}
