/**
 * Tab in the compiled REPL at a real terminal (a pseudo-terminal read through a terminal emulator), with
 * server-everything over stdio: what the line becomes after Tab, and the list a second Tab shows.
 */
import { afterEach, beforeAll, expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { compiledBinary } from "../../helpers/binary.ts";
import { EVERYTHING_SERVER, tempDir } from "../../helpers/paths.ts";
import { PtyTerminal } from "../../helpers/pty-terminal.ts";

let terminal: PtyTerminal | undefined;
let binary: string;
// The compiled binary, as users run it: its bundled readline is what answers Tab.
beforeAll(async () => {
  binary = await compiledBinary();
}, 60_000);
afterEach(() => {
  terminal?.kill();
  terminal = undefined;
});

async function startRepl(): Promise<PtyTerminal> {
  const configDir = tempDir();
  writeFileSync(join(configDir, "mcp.json"), JSON.stringify({ mcpServers: { everything: { command: "node", args: [EVERYTHING_SERVER, "stdio"] } } }));
  const started = new PtyTerminal();
  started.start([binary, "--mcp-config", join(configDir, "mcp.json")], {
    cwd: tempDir(),
    env: { CAT_CODE_HOME: tempDir(), PATH: process.env.PATH ?? "/usr/bin:/bin" },
  });
  await started.waitForText("MCP: 1 server(s)", 30_000);
  return started;
}

/** The prompt and what is typed at it: the last line that is not one of the live menu's rows (`› /help …`, `  /mcp …`). */
const lastLine = (screen: string) => screen.split("\n").findLast((line) => !/^(› | {2})/.test(line)) ?? "";

async function lineBecomes(pty: PtyTerminal, expected: string): Promise<string> {
  return pty.waitFor((screen) => lastLine(screen) === expected, `the line to read ${JSON.stringify(expected)}`);
}

test("Tab completes /he to /help, and /mcp lo to the subcommands it could be", async () => {
  terminal = await startRepl();
  terminal.send("/he", "\t");
  await lineBecomes(terminal, "> /help");
  terminal.send("Enter");
  const help = await terminal.waitForText("MCP prompts");
  expect(help).toContain("/mcp__everything__args-prompt <city> [state]");

  terminal.send("/mcp lo", "\t");
  await lineBecomes(terminal, "> /mcp log");
  terminal.send("\t");
  const listed = await terminal.waitFor((screen) => /login\s+logout\n+> \/mcp log$/.test(screen), "the two subcommands listed");
  expect(lastLine(listed)).toBe("> /mcp log");
}, 60_000);

test("Tab completes @everything:demo://res… to the resource URIs, and a prompt's argument via completion/complete", async () => {
  terminal = await startRepl();
  terminal.send("read @ev", "\t");
  await lineBecomes(terminal, "> read @everything:");
  terminal.send("demo://res", "\t");
  await lineBecomes(terminal, "> read @everything:demo://resource/");
  terminal.send("static/document/fea", "\t");
  await lineBecomes(terminal, "> read @everything:demo://resource/static/document/features.md");
  terminal.send("C-c");
  await lineBecomes(terminal, ">");

  terminal.send("/mcp__everything__comp", "\t");
  await lineBecomes(terminal, "> /mcp__everything__completable-prompt");
  terminal.send(" Eng", "\t");
  await lineBecomes(terminal, "> /mcp__everything__completable-prompt Engineering");
  terminal.send(" ", "\t", "\t");
  const members = await terminal.waitFor((screen) => /Alice\s+Bob\s+Charlie\n/.test(screen), "Engineering's members listed");
  expect(lastLine(members)).toBe("> /mcp__everything__completable-prompt Engineering");
}, 60_000);
