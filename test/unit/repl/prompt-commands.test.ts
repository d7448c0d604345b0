/**
 * A server's prompts as REPL slash commands, against a fake server (the real one, server-everything,
 * is in prompt-commands-terminal.test.ts): names, /help, arguments as typed, missing ones asked for,
 * the messages turned into the user's turn, and what is printed when something goes wrong.
 */
import { describe, expect, test } from "bun:test";
import type { ServerFeature } from "../../../src/mcp/client/mcp-client.ts";
import { McpError } from "../../../src/mcp/mcp-error.ts";
import type { GetPromptResult, Prompt } from "../../../src/mcp/protocol.ts";
import { parsePromptArguments } from "../../../src/repl/prompt-arguments.ts";
import { listPromptCommands, runPromptCommand, type PromptCommand } from "../../../src/repl/prompt-commands.ts";
import { promptBlocks } from "../../../src/repl/prompt-messages.ts";
import { runSlashCommand, type SlashContext } from "../../../src/repl/slash-commands.ts";

const WEATHER: Prompt = {
  name: "weather",
  description: "The weather\nin a city",
  arguments: [
    { name: "city", required: true, description: "Name of the city" },
    { name: "state", description: "Name of the state" },
  ],
};
const PNG_1x1 = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==";

function fakeClient(prompts: Prompt[], get: (name: string, args: Record<string, string>) => Promise<GetPromptResult> = async () => ({ messages: [] })) {
  const gets: Array<{ name: string; args: Record<string, string> }> = [];
  return {
    gets,
    offers: (feature: ServerFeature) => feature === "prompts",
    listPrompts: async () => prompts,
    complete: async () => ({ values: [] }),
    getPrompt: (name: string, args: Record<string, string>) => (gets.push({ name, args }), get(name, args)),
  };
}

function poolOf(servers: Record<string, ReturnType<typeof fakeClient>>) {
  return { serversOffering: (feature: ServerFeature) => Object.entries(servers).filter(([, client]) => client.offers(feature)).map(([name, client]) => ({ name, client: client as never })) };
}

/** What a prompt command prints and asks, with `answers` typed at its questions (null: Ctrl-D). */
function io(answers: Array<string | null> = []) {
  const printed: string[] = [];
  const asked: string[] = [];
  return {
    printed,
    asked,
    print: (line: string) => printed.push(line),
    ask: async (question: string) => (asked.push(question), answers.shift() ?? null),
    cancellable: <T>(work: (signal: AbortSignal) => Promise<T>) => work(new AbortController().signal),
  };
}

const command = (client: ReturnType<typeof fakeClient>, prompt = WEATHER): PromptCommand => ({ name: `mcp__srv__${prompt.name}`, server: "srv", client, prompt });

describe("arguments as typed", () => {
  test("positional in the prompt's order, or name=value, quoted as a shell would", () => {
    expect(parsePromptArguments(`"New York" NY`, WEATHER.arguments!)).toEqual({ ok: true, values: { city: "New York", state: "NY" } });
    expect(parsePromptArguments(`state=NY Albany`, WEATHER.arguments!)).toEqual({ ok: true, values: { city: "Albany", state: "NY" } });
    expect(parsePromptArguments(`'a=b'`, WEATHER.arguments!)).toEqual({ ok: false, error: "no argument 'a'; it takes city* state" });
    expect(parsePromptArguments(`"x = y"`, WEATHER.arguments!)).toEqual({ ok: true, values: { city: "x = y" } });
    expect(parsePromptArguments(`a b c`, WEATHER.arguments!)).toEqual({ ok: false, error: "too many arguments (3); it takes city* state" });
    expect(parsePromptArguments(`"open`, WEATHER.arguments!)).toEqual({ ok: false, error: 'unterminated " quote in: "open' });
  });
});

describe("running a prompt command", () => {
  test("its messages become the user's turn; a missing required argument is asked for first", async () => {
    const client = fakeClient([WEATHER], async (_name, args) => ({ messages: [{ role: "user", content: { type: "text", text: `Weather in ${args.city}?` } }] }));
    const terminal = io(["", "Paris"]);
    const blocks = await runPromptCommand(command(client), "state=TX", terminal);
    expect(terminal.asked).toEqual(["city* (Name of the city): ", "city* (Name of the city): "]);
    expect(client.gets).toEqual([{ name: "weather", args: { state: "TX", city: "Paris" } }]);
    expect(blocks).toEqual([{ type: "text", text: "Weather in Paris?" }]);
    expect(terminal.printed).toEqual(["⎿ sent prompt mcp__srv__weather (1 message(s))"]);
  });

  test("no answer at a question (Ctrl-D, Esc, Ctrl-C) cancels: nothing is asked of the server", async () => {
    const client = fakeClient([WEATHER]);
    const terminal = io([null]);
    expect(await runPromptCommand(command(client), "", terminal)).toBeUndefined();
    expect(terminal.printed).toEqual(["(cancelled: nothing was sent)"]);
    expect(client.gets).toEqual([]);
  });

  test("too many arguments, and the server's error, are one line each; nothing is sent", async () => {
    const client = fakeClient([WEATHER], async () => {
      throw new McpError(-32602, "Invalid resourceId:\u001b[31m 0");
    });
    const terminal = io();
    expect(await runPromptCommand(command(client), "a b c", terminal)).toBeUndefined();
    expect(await runPromptCommand(command(client), "Paris", terminal)).toBeUndefined();
    expect(terminal.printed).toEqual([
      "error: /mcp__srv__weather: too many arguments (3); it takes city* state",
      "error: srv could not give prompt /mcp__srv__weather: Invalid resourceId: 0",
    ]);
    expect(client.gets).toHaveLength(1);
  });
});

describe("a prompt's messages as blocks", () => {
  test("text, images, embedded resources; an assistant message quoted; the rest described", () => {
    const blocks = promptBlocks("srv", {
      messages: [
        { role: "user", content: { type: "text", text: "Look:" } },
        { role: "user", content: { type: "image", data: PNG_1x1, mimeType: "image/png" } },
        { role: "user", content: { type: "resource", resource: { uri: "demo://a.md", mimeType: "text/markdown", text: "# A" } } },
        { role: "user", content: { type: "resource", resource: { uri: "demo://b.bin", mimeType: "application/pdf", blob: "AAAA" } } },
        { role: "user", content: { type: "image", data: "AAAA", mimeType: "image/tiff" } },
        { role: "assistant", content: { type: "text", text: "I will look." } },
        { role: "user", content: { type: "audio", data: "AAAA", mimeType: "audio/wav" } },
      ],
    });
    expect(blocks).toEqual([
      { type: "text", text: "Look:" },
      { type: "image", mediaType: "image/png", data: PNG_1x1 },
      { type: "text", text: "[resource srv:demo://a.md, text/markdown]\n# A" },
      { type: "text", text: "[binary resource srv:demo://b.bin, application/pdf, 3 B: not shown]" },
      { type: "text", text: "[image: image/tiff, 3 B: not shown, it is not a PNG, JPEG, GIF or WebP image]" },
      { type: "text", text: "(The prompt's example of an assistant answer:)\nI will look." },
      { type: "text", text: "[audio content, audio/wav, 3 B: not sent]" },
    ]);
  });

  test("a text past the tool output limit is cut with a note; past 20 images, the rest are described", () => {
    const many = Array.from({ length: 21 }, () => ({ role: "user" as const, content: { type: "image", data: PNG_1x1, mimeType: "image/png" } }));
    const blocks = promptBlocks("srv", { messages: [...many, { role: "user", content: { type: "text", text: "x".repeat(200_000) } }] });
    expect(blocks.filter((block) => block.type === "image")).toHaveLength(20);
    expect(blocks[20]).toEqual({ type: "text", text: "[image: image/png, 70 B: not shown, more than 20 images]" });
    // The refused image's line counts against the text limit too.
    expect(blocks).toHaveLength(22);
    expect((blocks[21] as { text: string }).text).toMatch(/\n\n\[output cut: 100,0\d\d of 200,000 characters not shown\]$/);
  });

  test("past the limit, the rest of the messages are left out with one line, however many there are", () => {
    const messages = Array.from({ length: 100_000 }, () => ({ role: "user" as const, content: { type: "text", text: "y".repeat(10) } }));
    const blocks = promptBlocks("srv", { messages });
    expect(blocks).toHaveLength(10_001);
    expect(blocks.at(-1)).toEqual({ type: "text", text: "[90000 more message(s) of the prompt not shown: the output limit was reached]" });
  });
});

describe("in the slash command list", () => {
  function context(pool: ReturnType<typeof poolOf>, hasKey = true) {
    const printed: string[] = [];
    const slash: SlashContext = {
      runtime: { pool, connectMcp: async () => ({}), agentOrMissingKey: () => (hasKey ? {} : { missing: "ANTHROPIC_API_KEY is not set" }) } as never,
      print: (text) => printed.push(text),
      cancellable: (work) => work(new AbortController().signal),
      ask: async () => null,
    };
    return { slash, printed };
  }

  test("/help lists every prompt with its arguments under MCP prompts", async () => {
    const { slash, printed } = context(poolOf({ everything: fakeClient([WEATHER, { name: "simple" }]) }));
    await runSlashCommand("/help", slash);
    expect(printed[0]).toContain("MCP prompts");
    expect(printed[0]).toContain("/mcp__everything__weather <city> [state]  The weather");
    expect(printed[0]).toContain("/mcp__everything__simple");
  });

  test("a prompt command sends its blocks; an unknown one gets the usual line with a suggestion", async () => {
    const client = fakeClient([WEATHER], async () => ({ messages: [{ role: "user", content: { type: "text", text: "hi" } }] }));
    const { slash, printed } = context(poolOf({ everything: client }));
    expect(await runSlashCommand("/mcp__everything__weather Paris", slash)).toEqual({ send: [{ type: "text", text: "hi" }] });
    expect(await runSlashCommand("/mcp__everything__wether Paris", slash)).toBe("continue");
    expect(printed.at(-1)).toBe("Unknown command /mcp__everything__wether. Did you mean /mcp__everything__weather? /help lists the commands.");
  });

  test("without an API key, nothing is asked or fetched", async () => {
    const client = fakeClient([WEATHER]);
    const { slash, printed } = context(poolOf({ everything: client }), false);
    expect(await runSlashCommand("/mcp__everything__weather", slash)).toBe("continue");
    expect(printed).toEqual(["error: ANTHROPIC_API_KEY is not set"]);
    expect(client.gets).toEqual([]);
  });

  test("two prompts whose names sanitize alike both stay, told apart", async () => {
    const commands = await listPromptCommands(poolOf({ s: fakeClient([{ name: "a.b" }, { name: "a_b" }]) }));
    expect(commands.map((c) => c.name)).toEqual(["mcp__s__a_b", expect.stringMatching(/^mcp__s__a_b_[0-9a-f]{8}$/)]);
  });
});
