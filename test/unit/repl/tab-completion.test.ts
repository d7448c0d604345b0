/**
 * Tab in the REPL, source by source, against fake servers (the real ones are in
 * tab-completion-everything.test.ts and the PTY tests): which word each kind completes, what a
 * server's answer may put in the line, and how long a Tab waits for a server (a fake clock).
 */
import { describe, expect, test } from "bun:test";
import type { ServerFeature } from "../../../src/mcp/client/mcp-client.ts";
import type { Completion, CompletionReference, Prompt } from "../../../src/mcp/protocol.ts";
import { createCompleter, MAX_CANDIDATES } from "../../../src/repl/completion.ts";
import { mentionCompletion } from "../../../src/repl/mention-completion.ts";
import { RemoteCompletions } from "../../../src/repl/remote-completion.ts";
import { slashCompletion } from "../../../src/repl/slash-completion.ts";
import { templateVariableAt } from "../../../src/repl/template-variable.ts";
import { debugLines } from "../../helpers/debug-lines.ts";
import { FakeClock } from "../../helpers/fake-clock.ts";
import { waitFor } from "../../helpers/wait-for.ts";

type Call = { ref: CompletionReference; argument: { name: string; value: string }; context?: Record<string, string> };

/** A server as Tab sees it: its prompts, resources, templates, and a completion/complete answer. */
function fakeServer(options: { offers?: ServerFeature[]; prompts?: Prompt[]; uris?: string[]; templates?: string[]; answer?: (call: Call) => Promise<Completion> | Completion } = {}) {
  const calls: Call[] = [];
  const client = {
    offers: (feature: ServerFeature) => (options.offers ?? ["prompts", "resources", "completions"]).includes(feature),
    listPrompts: async () => options.prompts ?? [],
    listResources: async () => (options.uris ?? []).map((uri) => ({ uri, name: uri })),
    listResourceTemplates: async () => (options.templates ?? []).map((uriTemplate) => ({ uriTemplate, name: uriTemplate })),
    getPrompt: async () => ({ messages: [] }),
    complete: async (ref: CompletionReference, argument: { name: string; value: string }, callOptions: { context?: Record<string, string> } = {}) => {
      const call = { ref, argument, context: callOptions.context };
      calls.push(call);
      return options.answer ? options.answer(call) : { values: [] };
    },
  };
  return { client, calls };
}

function completerFor(servers: Record<string, ReturnType<typeof fakeServer>>, remote = new RemoteCompletions()) {
  const entries = Object.entries(servers).map(([name, server]) => ({ name, client: server.client as never }));
  const pool = {
    status: () => entries.map(({ name }) => ({ name, state: "connected" }) as never),
    serversOffering: (feature: ServerFeature) => entries.filter(({ client }) => (client as { offers(f: ServerFeature): boolean }).offers(feature)),
  };
  return createCompleter([slashCompletion({ pool, remote }), mentionCompletion({ pool, remote })]);
}

const TEAM: Prompt = {
  name: "team",
  arguments: [
    { name: "department", required: true },
    { name: "name", required: true },
  ],
};

describe("slash commands", () => {
  test("a command name completes from the built-ins and every server's prompts", async () => {
    const complete = completerFor({ everything: fakeServer({ prompts: [TEAM, { name: "simple" }] }) });
    expect(await complete("/he")).toEqual([["/help"], "/he"]);
    expect(await complete("/mcp__ev")).toEqual([["/mcp__everything__team", "/mcp__everything__simple"], "/mcp__ev"]);
    expect((await complete("/"))[0]).toEqual(expect.arrayContaining(["/help", "/mcp", "/tools", "/clear", "/exit", "/mcp__everything__team"]));
  });

  test("/permissions completes add, remove and trust, and after add the list (or user|project first)", async () => {
    const complete = completerFor({});
    expect(await complete("/permissions ")).toEqual([["add", "remove", "trust"], ""]);
    expect(await complete("/permissions a")).toEqual([["add"], "a"]);
    expect(await complete("/permissions add d")).toEqual([["deny"], "d"]);
    expect(await complete("/permissions add ")).toEqual([["allow", "ask", "deny", "user", "project"], ""]);
    expect(await complete("/permissions add user a")).toEqual([["allow", "ask"], "a"]);
    // The rule itself is the user's to write.
    expect(await complete("/permissions add deny Ba")).toEqual([[], "/permissions add deny Ba"]);
  });

  test("/mcp completes its subcommands, and the server after login and logout", async () => {
    const complete = completerFor({ everything: fakeServer(), remote: fakeServer({ offers: [] }) });
    expect(await complete("/mcp lo")).toEqual([["login", "logout"], "lo"]);
    expect(await complete("/mcp login ")).toEqual([["everything", "remote"], ""]);
    expect(await complete("/mcp logout re")).toEqual([["remote"], "re"]);
  });

  test("a prompt's argument is completed by the server, with the earlier arguments as context", async () => {
    const server = fakeServer({
      prompts: [TEAM],
      answer: ({ argument }) => ({ values: argument.name === "department" ? ["Engineering", "Sales"].filter((d) => d.startsWith(argument.value)) : ["Alice", "Bob"] }),
    });
    const complete = completerFor({ everything: server });
    expect(await complete("/mcp__everything__team Eng")).toEqual([["Engineering"], "Eng"]);
    expect(await complete("/mcp__everything__team Engineering ")).toEqual([["Alice", "Bob"], ""]);
    expect(await complete("/mcp__everything__team name=A")).toEqual([["name=Alice"], "name=A"]);
    expect(await complete("/mcp__everything__team name=Alice ")).toEqual([["Engineering", "Sales"], ""]);
    expect(server.calls).toEqual([
      { ref: { type: "ref/prompt", name: "team" }, argument: { name: "department", value: "Eng" }, context: undefined },
      { ref: { type: "ref/prompt", name: "team" }, argument: { name: "name", value: "" }, context: { department: "Engineering" } },
      { ref: { type: "ref/prompt", name: "team" }, argument: { name: "name", value: "A" }, context: undefined },
      { ref: { type: "ref/prompt", name: "team" }, argument: { name: "department", value: "" }, context: { name: "Alice" } },
    ]);
    // Every argument given: nothing to complete, nothing asked.
    expect(await complete("/mcp__everything__team a b ")).toEqual([[], "/mcp__everything__team a b "]);
    expect(server.calls).toHaveLength(4);
  });

  test("a server that does not offer completions is never asked", async () => {
    const server = fakeServer({ prompts: [TEAM], offers: ["prompts"] });
    expect(await completerFor({ s: server })("/mcp__s__team Eng")).toEqual([[], "Eng"]);
    expect(server.calls).toEqual([]);
  });
});

describe("@ mentions", () => {
  const everything = () =>
    fakeServer({
      uris: ["demo://resource/static/document/a.md", "demo://resource/static/document/b.md"],
      templates: ["demo://resource/dynamic/text/{resourceId}"],
      answer: ({ argument }) => ({ values: ["1", "2", "10"].filter((id) => id.startsWith(argument.value)) }),
    });

  test("the servers that offer resources, then their URIs and each template's fixed start", async () => {
    const complete = completerFor({ everything: everything(), tools: fakeServer({ offers: [] }) });
    expect(await complete("read @")).toEqual([["@everything:"], "@"]);
    expect(await complete("read @ev")).toEqual([["@everything:"], "@ev"]);
    expect(await complete("read @everything:demo://resource/")).toEqual([
      ["@everything:demo://resource/static/document/a.md", "@everything:demo://resource/static/document/b.md", "@everything:demo://resource/dynamic/text/"],
      "@everything:demo://resource/",
    ]);
    // An email address is no mention, and a server without resources has none.
    expect(await complete("write to me@everything:demo")).toEqual([[], "write to me@everything:demo"]);
    expect(await complete("@tools:x")).toEqual([[], "@tools:x"]);
  });

  test("past a template's fixed start, its variable is completed by the server (ref/resource)", async () => {
    const server = everything();
    const complete = completerFor({ everything: server });
    expect(await complete("@everything:demo://resource/dynamic/text/1")).toEqual([
      ["@everything:demo://resource/dynamic/text/1", "@everything:demo://resource/dynamic/text/10"],
      "@everything:demo://resource/dynamic/text/1",
    ]);
    expect(server.calls).toEqual([{ ref: { type: "ref/resource", uri: "demo://resource/dynamic/text/{resourceId}" }, argument: { name: "resourceId", value: "1" }, context: undefined }]);
  });

  test("a template variable is found after the fixed text, with the earlier variables as context", () => {
    expect(templateVariableAt("demo://x/{a}/{+b}", "demo://x/1/2")).toEqual({ name: "b", value: "2", before: "demo://x/1/", earlier: { a: "1" } });
    expect(templateVariableAt("demo://x/{a}/{b}", "demo://x/")).toEqual({ name: "a", value: "", before: "demo://x/", earlier: {} });
    expect(templateVariableAt("demo://x/{a}", "demo://y")).toBeUndefined();
    expect(templateVariableAt("demo://x/{a}.txt", "demo://x/1.txt")).toBeUndefined();
    expect(templateVariableAt("{path}", "")).toBeUndefined();
  });
});

describe("what reaches the line", () => {
  test("a server's value with control characters or line breaks, or that does not extend the word, is not offered", async () => {
    const server = fakeServer({ prompts: [TEAM], answer: () => ({ values: ["Eng\u001b[2Jineering", "Eng\nx", "Sales", "Engine ering", "Eng"] }) });
    expect(await completerFor({ s: server })("/mcp__s__team Eng")).toEqual([["Engine\\ ering", "Eng"], "Eng"]);
  });

  test("a value with blanks or quotes is offered escaped, and what was typed escaped is sent unescaped", async () => {
    const server = fakeServer({ prompts: [TEAM], answer: ({ argument }) => ({ values: ["Dr. Ada", "Dr. Al's"].filter((v) => v.startsWith(argument.value)) }) });
    const complete = completerFor({ s: server });
    expect(await complete("/mcp__s__team x Dr")).toEqual([["Dr.\\ Ada", "Dr.\\ Al\\'s"], "Dr"]);
    expect(await complete("/mcp__s__team x name=Dr.\\ A")).toEqual([["name=Dr.\\ Ada", "name=Dr.\\ Al\\'s"], "name=Dr.\\ A"]);
    expect(server.calls.map((call) => call.argument.value)).toEqual(["Dr", "Dr. A"]);
  });

  test(`past ${MAX_CANDIDATES} candidates, the common prefix of all comes first, so Tab inserts only what they share`, async () => {
    const uris = Array.from({ length: 10_000 }, (_, i) => `demo://r/${i < 5000 ? "a" : "b"}${i}`);
    const [candidates, word] = await completerFor({ s: fakeServer({ uris }) })("@s:demo://r/");
    expect(word).toBe("@s:demo://r/");
    expect(candidates).toHaveLength(MAX_CANDIDATES);
    expect(candidates[0]).toBe("@s:demo://r/");
  });

  test("a source that throws completes nothing and leaves a debug line", async () => {
    let answer: unknown;
    const lines = await debugLines(async () => {
      answer = await createCompleter([() => Promise.reject(new Error("boom")), () => [["/help"], "/h"]])("/h");
    });
    expect(answer).toEqual([["/help"], "/h"]);
    expect(lines.join("\n")).toContain("tab completion failed: boom");
  });
});

describe("waiting for a server", () => {
  test("a Tab waits 1.5 s at most; the request goes on, a second Tab waits for it and the answer is kept", async () => {
    const clock = new FakeClock();
    let release: (completion: Completion) => void = () => {};
    const server = fakeServer({ prompts: [TEAM], answer: () => new Promise((resolve) => (release = resolve)) });
    const complete = completerFor({ s: server }, new RemoteCompletions({ clock }));
    let first: unknown;
    const lines = await debugLines(async () => {
      const tab = complete("/mcp__s__team En").then((answer) => (first = answer));
      await waitFor(() => server.calls.length === 1, "the request");
      clock.advance(1499);
      await Promise.resolve();
      expect(first).toBeUndefined();
      clock.advance(1);
      await tab;
    });
    expect(first).toEqual([[], "En"]);
    expect(lines.join("\n")).toContain("took more than 1500 ms");
    const second = complete("/mcp__s__team En");
    await Promise.resolve();
    release({ values: ["Engineering"] });
    expect(await second).toEqual([["Engineering"], "En"]);
    expect(await complete("/mcp__s__team En")).toEqual([["Engineering"], "En"]);
    expect(server.calls).toHaveLength(1);
  });

  test("a failed request completes nothing, logs why, and is asked again on the next Tab", async () => {
    let fail = true;
    const server = fakeServer({ prompts: [TEAM], answer: () => (fail ? Promise.reject(new Error("MCP server 's' failed")) : { values: ["Sales"] }) });
    const complete = completerFor({ s: server });
    let answer: unknown;
    const lines = await debugLines(async () => void (answer = await complete("/mcp__s__team S")));
    expect(answer).toEqual([[], "S"]);
    expect(lines.join("\n")).toContain("completion of department from s failed: MCP server 's' failed");
    fail = false;
    expect(await complete("/mcp__s__team S")).toEqual([["Sales"], "S"]);
    expect(server.calls).toHaveLength(2);
  });
});
