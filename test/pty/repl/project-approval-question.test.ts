import { afterEach, expect, test } from "bun:test";
import { existsSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { ECHO_SERVER, tempDir } from "../../helpers/paths.ts";
import { PtyTerminal } from "../../helpers/pty-terminal.ts";
import { catCode } from "../../helpers/binary.ts";

/**
 * A project's `.mcp.json` at REPL start: the REPL asks before it starts anything, and the answer is
 * recorded as `cat-code mcp approve` / `deny` would record it.
 */
let terminal: PtyTerminal | undefined;
afterEach(() => terminal?.kill());

function startReplIn(project: string, home: string): PtyTerminal {
  const started = new PtyTerminal();
  started.start([...catCode()], {
    cwd: project,
    env: { CAT_CODE_HOME: home, ANTHROPIC_API_KEY: "", PATH: process.env.PATH ?? "/usr/bin:/bin" },
  });
  return started;
}

function projectWith(marker: string): string {
  const project = tempDir();
  // The server leaves a marker when it starts: proof of whether it was spawned.
  writeFileSync(
    join(project, ".mcp.json"),
    JSON.stringify({ mcpServers: { echo: { command: "sh", args: ["-c", `touch ${marker}; exec ${ECHO_SERVER}`] } } }),
  );
  return project;
}

test("a yes starts the project server and is remembered for the next start", async () => {
  const marker = join(tempDir(), "started");
  const project = projectWith(marker);
  const home = tempDir();
  terminal = startReplIn(project, home);
  await terminal.waitForText("Allow it? [y]es / [n]o, never / [l]ater");
  expect(terminal.screen()).toContain("wants to start the MCP server 'echo'");
  expect(existsSync(marker)).toBe(false);
  terminal.type("y");
  await terminal.waitForText("MCP: 1 server(s), 1 tool(s) registered");
  terminal.type("/mcp");
  await terminal.waitForText("echo  CONNECTED  1 tool(s)");
  expect(existsSync(marker)).toBe(true);
  terminal.type("/exit");
  await terminal.waitForText("[exit 0]");
  terminal.kill();

  terminal = startReplIn(project, home);
  await terminal.waitForText("MCP: 1 server(s), 1 tool(s) registered");
  expect(terminal.screen()).not.toContain("Allow it?");
});

test("later leaves it waiting, spawns nothing, and /mcp says so", async () => {
  const marker = join(tempDir(), "started");
  terminal = startReplIn(projectWith(marker), tempDir());
  await terminal.waitForText("Allow it?");
  terminal.type("l");
  await terminal.waitForText("/help for commands");
  terminal.type("/mcp");
  await terminal.waitForText("NEEDS-APPROVAL");
  expect(existsSync(marker)).toBe(false);
});

test("the question shows the whole entry: command line, cwd, every env value as written, and a warning for a loader variable", async () => {
  const marker = join(tempDir(), "started");
  const project = tempDir();
  const payload = `/tmp/payload-${"p".repeat(120)}.sh`;
  writeFileSync(
    join(project, ".mcp.json"),
    JSON.stringify({
      mcpServers: { echo: { command: "sh", args: ["-c", `touch ${marker}; exec ${ECHO_SERVER}`], cwd: "/tmp", env: { BASH_ENV: payload, KEY: "${UNSET_KEY:-x}" } } },
    }),
  );
  terminal = startReplIn(project, tempDir());
  await terminal.waitForText("Allow it? [y]es / [n]o, never / [l]ater");
  // The screen wraps long lines: compare without line breaks.
  const shown = terminal.screen().replace(/\s+/g, " ");
  expect(shown).toContain(`command: sh -c 'touch ${marker}; exec ${ECHO_SERVER}'`);
  expect(shown).toContain("cwd: /tmp");
  // Whole, not cut: the long value is all there (the wrap may split it).
  expect(terminal.screen().replace(/\s+/g, "")).toContain(`env:BASH_ENV=${payload}`);
  expect(shown).toContain("KEY=${UNSET_KEY:-x}");
  expect(shown).toContain("warning: BASH_ENV changes which code programs load");
  terminal.type("n");
  await terminal.waitForText("/help for commands");
  expect(existsSync(marker)).toBe(false);
});

test("the question shows an http entry's oauth block whole, each ${VAR} with where it goes, and a warning for a secret", async () => {
  const project = tempDir();
  const oauth = { grant: "client_credentials", clientId: "robot", clientSecret: "x-${GITHUB_TOKEN:-unset}", scopes: ["repo"] };
  writeFileSync(join(project, ".mcp.json"), JSON.stringify({ mcpServers: { api: { url: "http://127.0.0.1:9/mcp", headers: { "X-Team": "${TEAM:-cats}" }, oauth } } }));
  terminal = startReplIn(project, tempDir());
  await terminal.waitForText("Allow it? [y]es / [n]o, never / [l]ater");
  // The screen wraps long lines, through a word too: compare without any space.
  const packed = terminal.screen().replace(/\s+/g, "");
  for (const line of [
    "oauth: grant: client_credentials clientId: robot clientSecret: x-${GITHUB_TOKEN:-unset} scopes: repo",
    "reads: $TEAM: sends it to http://127.0.0.1:9 (headers.X-Team)",
    "$GITHUB_TOKEN: sends it to the authorization server http://127.0.0.1:9 names (oauth.clientSecret)",
    "warning: $GITHUB_TOKEN is a secret withheld from servers unless an entry names it: approving sends it to the authorization server http://127.0.0.1:9 names",
  ]) {
    expect(packed).toContain(line.replace(/\s+/g, ""));
  }
  terminal.type("n");
  await terminal.waitForText("/help for commands");
});
