/**
 * Tab against a real peer, server-everything over stdio, with the REPL's own sources: its prompts
 * as commands, its resources and templates after `@everything:`, and its completion/complete for a
 * prompt's argument (completable-prompt, whose second answer depends on the first) and a template's
 * variable. The filesystem server declares neither resources nor prompts: it is never offered.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { join } from "node:path";
import type { ServerEntry } from "../../../src/mcp/config/server-config.ts";
import { ServerPool } from "../../../src/mcp/pool/server-pool.ts";
import { createCompleter } from "../../../src/repl/completion.ts";
import { mentionCompletion } from "../../../src/repl/mention-completion.ts";
import { RemoteCompletions } from "../../../src/repl/remote-completion.ts";
import { slashCompletion } from "../../../src/repl/slash-completion.ts";
import { EVERYTHING_SERVER, REPO, tempDir } from "../../helpers/paths.ts";

const FILESYSTEM_SERVER = join(REPO, "node_modules", "@modelcontextprotocol", "server-filesystem", "dist", "index.js");

const stdio = (name: string, args: string[]): ServerEntry => ({
  name,
  scope: "user",
  source: "test",
  ok: true,
  config: { type: "stdio", command: "node", args, env: { PATH: process.env.PATH ?? "" } },
});

let pool: ServerPool;
let complete: (line: string) => Promise<[string[], string]>;

beforeAll(async () => {
  pool = new ServerPool([stdio("fs", [FILESYSTEM_SERVER, tempDir()]), stdio("everything", [EVERYTHING_SERVER, "stdio"])]);
  await pool.connectAll();
  const remote = new RemoteCompletions();
  complete = createCompleter([slashCompletion({ pool, remote }), mentionCompletion({ pool, remote })]);
}, 60_000);

afterAll(() => pool?.closeAll());

test("the server's prompts are commands, and /mcp login completes every configured server", async () => {
  const [names] = await complete("/mcp__");
  expect(names).toEqual(expect.arrayContaining(["/mcp__everything__simple-prompt", "/mcp__everything__args-prompt", "/mcp__everything__completable-prompt"]));
  expect(names.some((name) => name.startsWith("/mcp__fs__"))).toBe(false);
  expect(await complete("/mcp login ")).toEqual([["fs", "everything"], ""]);
});

test("completable-prompt: the department, then a member of the one given before (context)", async () => {
  expect(await complete("/mcp__everything__completable-prompt Eng")).toEqual([["Engineering"], "Eng"]);
  expect(await complete("/mcp__everything__completable-prompt Engineering ")).toEqual([["Alice", "Bob", "Charlie"], ""]);
  expect(await complete("/mcp__everything__completable-prompt Sales ")).toEqual([["David", "Eve", "Frank"], ""]);
  expect(await complete("/mcp__everything__completable-prompt name=C department=Engineering")).toEqual([["department=Engineering"], "department=Engineering"]);
  expect(await complete("/mcp__everything__completable-prompt department=Support name=K")).toEqual([["name=Kim"], "name=K"]);
});

test("@ offers only servers with resources; then URIs, the templates' fixed starts, and a template's variable", async () => {
  expect(await complete("summarize @")).toEqual([["@everything:"], "@"]);
  const [uris, word] = await complete("summarize @everything:demo://res");
  expect(word).toBe("@everything:demo://res");
  expect(uris).toEqual(
    expect.arrayContaining([
      "@everything:demo://resource/static/document/features.md",
      "@everything:demo://resource/dynamic/text/",
      "@everything:demo://resource/dynamic/blob/",
    ]),
  );
  expect(await complete("@everything:demo://resource/dynamic/text/7")).toEqual([["@everything:demo://resource/dynamic/text/7"], "@everything:demo://resource/dynamic/text/7"]);
  expect(await complete("@fs:file")).toEqual([[], "@fs:file"]);
});
