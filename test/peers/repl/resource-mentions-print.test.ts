import { afterEach, beforeEach, expect, test } from "bun:test";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { reply, startMessagesStandIn, text, toolResultsOf, toolUse, type MessagesStandIn, type Step } from "../../../fixtures/anthropic/messages-stand-in.ts";
import { EVERYTHING_SERVER, MODERN_SERVER, writeConfig } from "../../helpers/paths.ts";
import { freePort, spawnServer } from "../../helpers/http-server-process.ts";
import { BUN, childEnv, REPO } from "../../helpers/cli-process.ts";
import { catCode } from "../../helpers/binary.ts";

/** `cat-code -p` with `@server:uri` mentions and the two resource tools: what the model receives, checked at the Messages API stand-in. */
const PICTURE_SERVER = join(REPO, "fixtures/picture-server.ts");
const ARCHITECTURE = "demo://resource/static/document/architecture.md";

let home: string;
let config: string;
let standIn: MessagesStandIn | undefined;
beforeEach(async () => {
  home = await mkdtemp(join(tmpdir(), "cat-code-mentions-"));
  config = writeConfig({ everything: { command: BUN, args: [EVERYTHING_SERVER, "stdio"] }, pic: { command: BUN, args: [PICTURE_SERVER] } }, home);
});
afterEach(async () => {
  await standIn?.stop();
  standIn = undefined;
  await rm(home, { recursive: true, force: true });
});

async function print(prompt: string, steps: Step[], flags: string[] = []) {
  await standIn?.stop();
  standIn = startMessagesStandIn(steps, { apiKey: "sk-test" });
  const env = childEnv(home, { ANTHROPIC_API_KEY: "sk-test", ANTHROPIC_BASE_URL: standIn.url });
  const child = Bun.spawn([...catCode(), "-p", prompt, "--mcp-config", config, ...flags], { cwd: home, env, stdin: "ignore", stdout: "pipe", stderr: "pipe" });
  const [stdout, stderr, code] = await Promise.all([new Response(child.stdout).text(), new Response(child.stderr).text(), child.exited]);
  return { stdout, stderr, code, requests: standIn.requests };
}

type Block = { type: string; text?: string; source?: { type: string; media_type: string; data: string } };

test("-p with mentions: the prompt as typed, then the text resource and the image resource as blocks of the user turn", async () => {
  const prompt = `compare @everything:${ARCHITECTURE} with @pic:pic://logo.png.`;
  const { stdout, stderr, code, requests } = await print(prompt, [reply(text("They differ."))]);
  expect(code).toBe(0);
  expect(stdout).toBe("They differ.\n");
  expect(stderr).toMatch(new RegExp(`⎿ attached everything:${ARCHITECTURE} \\(\\d+\\.\\d KB\\)\\n`));
  expect(stderr).toContain("⎿ attached pic:pic://logo.png (3.9 KB)\n");
  const [turn] = requests[0]!.body.messages as { role: string; content: Block[] }[];
  expect(turn!.role).toBe("user");
  expect(turn!.content.map((b) => b.type)).toEqual(["text", "text", "text", "image"]);
  expect(turn!.content[0]).toEqual({ type: "text", text: prompt });
  expect(turn!.content[1]!.text).toStartWith(`[resource everything:${ARCHITECTURE}, text/markdown]\n# `);
  expect(turn!.content[2]).toEqual({ type: "text", text: "[image pic:pic://logo.png 20×20 png]" });
  expect(turn!.content[3]!.source).toMatchObject({ type: "base64", media_type: "image/png" });
  expect(turn!.content[3]!.source!.data).toStartWith("iVBORw0KGgo");
}, 60_000);

test("-p with no rules: the model lists resources unasked, but its reads are declined and nothing is read", async () => {
  const { code, requests, stderr } = await print("what resources are there?", [
    reply(toolUse("list_mcp_resources", {})),
    // A prompt-injected model carrying a secret out in the URI: the server must never see it.
    reply(toolUse("read_mcp_resource", { server: "pic", uri: "pic://logo.png?k=SECRET-FROM-ENV" })),
    reply(text("Could not read it.")),
  ]);
  expect(code).toBe(0);
  const tools = requests[0]!.body.tools!.map((tool) => tool.name);
  expect(tools).toContain("list_mcp_resources");
  expect(tools).toContain("read_mcp_resource");
  const [listed] = toolResultsOf(requests[1]!);
  expect(listed!.is_error).toBeUndefined();
  expect(listed!.content).toContain("everything: 7 resource(s), 2 template(s)\n");
  expect(listed!.content).toContain("\npic: 4 resource(s), 0 template(s)\n  pic://logo.png (logo, image/png)\n");
  const [read] = toolResultsOf(requests[2]!);
  expect(read!.is_error).toBe(true);
  expect(read!.content).toContain("declined to run read_mcp_resource");
  expect(stderr).toContain("declined");
}, 60_000);

test("-p: a read is allowed by a rule for its server (read_mcp_resource(pic), mcp__everything), and only for that server", async () => {
  const { code, requests, stderr } = await print("what resources are there?", [
    reply(toolUse("read_mcp_resource", { server: "pic", uri: "pic://logo.png" }), toolUse("read_mcp_resource", { server: "everything", uri: "demo://resource/dynamic/text/7" })),
    reply(text("A logo and a text.")),
  ], ["--allowedTools", "read_mcp_resource(pic),mcp__everything"]);
  expect(code).toBe(0);
  expect(stderr).not.toContain("declined");
  const [logo, dynamic] = toolResultsOf(requests[1]!);
  expect((logo!.content as Block[]).map((b) => b.type)).toEqual(["text", "image"]);
  expect((logo!.content as Block[])[0]!.text).toBe("[image pic:pic://logo.png 20×20 png]");
  expect(dynamic!.content).toMatch(/^\[resource everything:demo:\/\/resource\/dynamic\/text\/7, text\/plain\]\nResource 7: This is a plaintext resource/);

  // A rule for one server's reads does not cover another's.
  const other = await print("read it", [reply(toolUse("read_mcp_resource", { server: "everything", uri: "demo://resource/dynamic/text/7" })), reply(text("no"))], [
    "--allowedTools",
    "read_mcp_resource(pic)",
  ]);
  expect(toolResultsOf(other.requests[1]!)[0]!.content).toContain("declined to run read_mcp_resource");
}, 60_000);

test("-p: a mention whose read fails stops before anything is sent, naming it, exit 3", async () => {
  const { code, stderr, requests } = await print("look at @pic:pic://broken please", [reply(text("never"))]);
  expect(code).toBe(3);
  expect(stderr).toContain("error: could not attach @pic:pic://broken: ");
  expect(stderr).toContain("the disk is on fire");
  expect(stderr).toContain("(nothing was sent)");
  expect(requests).toHaveLength(0);
}, 60_000);

test("-p: a mention of an unknown server and an email address are sent as plain text", async () => {
  const prompt = "ask bob@example.com about @nowhere:thing";
  const { code, requests } = await print(prompt, [reply(text("ok"))]);
  expect(code).toBe(0);
  expect(requests[0]!.body.messages).toEqual([{ role: "user", content: [{ type: "text", text: prompt, cache_control: { type: "ephemeral" } }] }]);
}, 60_000);

test("-p against the 2026-07-28 fixture: an image resource and a read that asks for the roots first (MRTR)", async () => {
  config = writeConfig({ modern: { command: BUN, args: [MODERN_SERVER, "--stdio"] } }, home);
  const prompt = "see @modern:modern://images/dot.png and @modern:modern://roots";
  const { code, stderr, requests } = await print(prompt, [reply(text("ok"))]);
  expect(code).toBe(0);
  expect(stderr).toContain("⎿ attached modern:modern://images/dot.png (70 B)\n");
  const [turn] = requests[0]!.body.messages as { role: string; content: Block[] }[];
  expect(turn!.content.map((b) => b.type)).toEqual(["text", "text", "image", "text"]);
  expect(turn!.content[1]!.text).toBe("[image modern:modern://images/dot.png 1×1 png]");
  // The roots are the working directory, which the read asked for before answering.
  expect(turn!.content[3]!.text).toStartWith("[resource modern:modern://roots, text/plain]\nfile://");
}, 60_000);

test("-p against server-everything over Streamable HTTP: a mention and read_mcp_resource of a template's resource", async () => {
  const port = freePort();
  const server = await spawnServer(["node", EVERYTHING_SERVER, "streamableHttp"], { env: { PORT: String(port) }, ready: /listening on port (\d+)/, path: "/mcp" });
  try {
    config = writeConfig({ everything: { type: "http", url: server.url } }, home);
    const { code, stderr, requests } = await print(
      `read @everything:${ARCHITECTURE}`,
      [reply(toolUse("read_mcp_resource", { server: "everything", uri: "demo://resource/dynamic/text/2" })), reply(text("done"))],
      ["--allowedTools", "mcp__everything"],
    );
    expect(code).toBe(0);
    expect(stderr).toContain(`⎿ attached everything:${ARCHITECTURE} (`);
    const [turn] = requests[0]!.body.messages as { role: string; content: Block[] }[];
    expect(turn!.content[1]!.text).toStartWith(`[resource everything:${ARCHITECTURE}, text/markdown]\n# `);
    expect(toolResultsOf(requests[1]!)[0]!.content).toMatch(/^\[resource everything:demo:\/\/resource\/dynamic\/text\/2, text\/plain\]\nResource 2: /);
  } finally {
    await server.stop();
  }
}, 60_000);
