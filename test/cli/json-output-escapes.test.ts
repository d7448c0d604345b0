/**
 * JSON that cat-code prints (`mcp list --json`, `-p --output-format json` and `stream-json`) carries
 * what servers and the model wrote. JSON.stringify leaves C1 and bidi characters raw, so `cat`ting
 * it to a terminal could act on them; they come out as \u escapes, and the parsed document is the same.
 */
import { afterAll, afterEach, beforeAll, expect, test } from "bun:test";
import { reply, startMessagesStandIn, text, type MessagesStandIn } from "../../fixtures/anthropic/messages-stand-in.ts";
import { ScriptedServer } from "../../fixtures/http/scripted-server.ts";
import { run, runSource } from "../helpers/binary.ts";
import { BUN, REPO, tempDir, writeConfig } from "../helpers/paths.ts";

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
afterEach(async () => {
  await standIn?.stop();
  standIn = undefined;
});

test("mcp list --json: a server's C1 and bidi characters are \\u escapes, and the reason parses back whole", async () => {
  const config = writeConfig({ bad: { url: refusing.url } });
  const { exitCode, stdout } = await runSource(["mcp", "list", "--json", "--no-keeper", "--mcp-config", config], { env: { CAT_CODE_HOME: tempDir() } });
  expect(exitCode).toBe(0);
  expect(stdout).not.toMatch(RAW);
  expect(stdout).toContain("\\u009b2J");
  expect(stdout).toContain("\\u202eevil\\u202c");
  expect(JSON.parse(stdout).servers[0].reason).toContain(HOSTILE);
});

for (const format of ["json", "stream-json"]) {
  test(`-p --output-format ${format}: the model's C1 and bidi characters are \\u escapes, and parse back whole`, async () => {
    standIn = startMessagesStandIn([reply(text(`answer: ${HOSTILE}`))], { apiKey: "sk-test" });
    const env = { PATH: process.env.PATH ?? "", CAT_CODE_HOME: tempDir(), ANTHROPIC_API_KEY: "sk-test", ANTHROPIC_BASE_URL: standIn.url, NO_COLOR: "1" };
    const { exitCode, stdout } = await run([BUN, `${REPO}/src/cli/main.ts`, "-p", "hi", "--output-format", format], { env, cwd: tempDir() });
    expect(exitCode).toBe(0);
    expect(stdout).not.toMatch(RAW);
    expect(stdout).toContain("\\u009b2J way \\u202eevil\\u202c");
    const last = JSON.parse(stdout.trim().split("\n").at(-1) as string);
    expect(last.result).toBe(`answer: ${HOSTILE}`);
  });
}
