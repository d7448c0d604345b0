/**
 * What servers and the model say reaches the terminal only through the sanitizer: warnings (a
 * tool-name collision, a failed handshake) as well as results. `-p` prints the model's final text
 * sanitized on a terminal and exact in a pipe, where a script may want every byte.
 */
import { afterAll, afterEach, beforeAll, describe, expect, test } from "bun:test";
import { reply, startMessagesStandIn, text, type MessagesStandIn } from "../../../fixtures/anthropic/messages-stand-in.ts";
import { result, ScriptedServer } from "../../../fixtures/http/scripted-server.ts";
import { catCode, run } from "../../helpers/binary.ts";
import { KEEPER_MODES, useKeeperMode } from "../../helpers/keeper-modes.ts";
import { REPO, tempDir, writeConfig } from "../../helpers/paths.ts";
import { waitFor } from "../../helpers/wait-for.ts";

const CLEAR = "\u001b[2J";
const TITLE = "\u001b]0;pwned\u0007";
const RLO = "\u202e";

describe.each(KEEPER_MODES)("warnings (%s)", (mode) => {
  const { runBinary } = useKeeperMode(mode);

  let colliding: ScriptedServer;
  let refusing: ScriptedServer;
  beforeAll(() => {
    const schema = { type: "object" };
    // `x_2Jy_2_T_` first, then a name that maps to it: the second gets a warning that quotes its name.
    const tools = [{ name: "x_2Jy_2_T_", inputSchema: schema }, { name: `x${CLEAR}y\u001b]2;T\u0007`, inputSchema: schema }];
    colliding = new ScriptedServer(({ method, body }) =>
      method === "POST" && body?.method === "tools/list" ? Response.json(result(body.id, { tools })) : undefined,
    );
    refusing = new ScriptedServer(({ method, body }) =>
      method === "POST" && body?.method === "initialize"
        ? Response.json({ jsonrpc: "2.0", id: body.id, error: { code: -32603, message: `no${CLEAR}${TITLE}${RLO} way` } })
        : undefined,
    );
  });
  afterAll(async () => {
    await colliding.stop();
    await refusing.stop();
  });

  test("a tool-name collision and a failed initialize are warned about without their escapes", async () => {
    const config = writeConfig({ ok: { url: colliding.url }, bad: { url: refusing.url } });
    const { exitCode, stdout, stderr } = await runBinary(["mcp", "tools", "--mcp-config", config]);
    expect(exitCode).toBe(0);
    expect(stderr).toContain("MCP tool 'xy' of server 'ok' maps to mcp__ok__x_2Jy_2_T_, which is taken");
    expect(stderr).toContain("MCP server 'bad' failed: initialize failed: no way");
    expect(stdout).toContain("mcp__ok__x_2Jy_2_T_");
    for (const output of [stdout, stderr]) {
      expect(output).not.toContain("\u001b");
      expect(output).not.toContain("pwned");
      expect(output).not.toContain(RLO);
    }
  });
});

describe("-p output", () => {
  const answer = `hello ${TITLE}${CLEAR}world${RLO}!`;
  let standIn: MessagesStandIn | undefined;
  afterEach(async () => {
    await standIn?.stop();
    standIn = undefined;
  });

  function env(): Record<string, string> {
    standIn = startMessagesStandIn([reply(text(answer))], { apiKey: "sk-test" });
    return { PATH: process.env.PATH ?? "", CAT_CODE_HOME: tempDir(), ANTHROPIC_API_KEY: "sk-test", ANTHROPIC_BASE_URL: standIn.url, NO_COLOR: "1" };
  }

  test("in a pipe: the model's text exactly, escapes and all", async () => {
    const { exitCode, stdout } = await run([...catCode(), "-p", "hi"], { env: env() });
    expect([exitCode, stdout]).toEqual([0, `${answer}\n`]);
  });

  test("on a terminal: sanitized, so the model cannot set the title, clear the screen or reverse text", async () => {
    let seen = "";
    const child = Bun.spawn([...catCode(), "-p", "hi"], {
      cwd: REPO,
      env: { TERM: "xterm-256color", ...env() },
      terminal: { cols: 100, rows: 20, data: (_terminal, data) => (seen += new TextDecoder().decode(data)) },
    });
    const code = await Promise.race([child.exited, Bun.sleep(30_000).then(() => -1)]);
    await waitFor(() => seen.includes("world!"), "the answer on the terminal");
    expect(code).toBe(0);
    expect(seen).toContain("hello world!");
    expect(seen).not.toContain("pwned");
    expect(seen).not.toContain(CLEAR);
    expect(seen).not.toContain(RLO);
  });
});
