import { afterEach, expect, test } from "bun:test";
import { join } from "node:path";
import { reply, startMessagesStandIn, text, type MessagesStandIn } from "../../../fixtures/anthropic/messages-stand-in.ts";
import { ScriptedServer } from "../../../fixtures/http/scripted-server.ts";
import { tempDir, writeConfig } from "../../helpers/paths.ts";
import { childEnv } from "../../helpers/cli-process.ts";
import { catCode } from "../../helpers/binary.ts";

let standIn: MessagesStandIn | undefined;
let server: ScriptedServer | undefined;
afterEach(async () => {
  await standIn?.stop();
  await server?.stop();
});

test("print mode counts a server that needs a sign-in apart from failures, with the command", async () => {
  server = new ScriptedServer(() => new Response("unauthorized", { status: 401, headers: { "WWW-Authenticate": 'Bearer realm="mcp"' } }));
  const dir = tempDir("cat-code-print-auth-");
  const config = writeConfig({ linear: { type: "http", url: server.url } }, dir);
  standIn = startMessagesStandIn([reply(text("done"))], { apiKey: "sk-test" });
  const env = childEnv(join(dir, "home"), { ANTHROPIC_API_KEY: "sk-test", ANTHROPIC_BASE_URL: standIn.url, BROWSER: "/bin/false" });
  const child = Bun.spawn([...catCode(), "-p", "hi", "--mcp-config", config], { cwd: dir, env, stdin: "ignore", stdout: "pipe", stderr: "pipe" });
  const [stdout, stderr, code] = await Promise.all([new Response(child.stdout).text(), new Response(child.stderr).text(), child.exited]);
  expect(stdout).toBe("done\n");
  expect(stderr).toContain(`MCP: 1 server needs sign-in: cat-code mcp login --mcp-config ${config} linear`);
  expect(stderr).not.toContain("is not available");
  expect(stderr).not.toContain("Sign in to");
  expect(code).toBe(0);
});
