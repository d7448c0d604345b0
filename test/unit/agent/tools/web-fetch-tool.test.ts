import { afterEach, expect, test } from "bun:test";
import { reply, resultText, text, toolResultsOf, toolUse } from "../../../../fixtures/anthropic/messages-stand-in.ts";
import { allowAll, declineAll } from "../../../../src/agent/permission.ts";
import { withRules } from "../../../../src/agent/permission-rules.ts";
import { suggestedRule } from "../../../../src/agent/suggested-rule.ts";
import { ToolRegistry } from "../../../../src/agent/tool-registry.ts";
import { guardedFetch } from "../../../../src/agent/tools/guarded-fetch.ts";
import { WebFetchTool } from "../../../../src/agent/tools/web-fetch-tool.ts";
import { parseRule } from "../../../../src/system/permission-rule-syntax.ts";
import { agentWith, standIn, stopAfterEach } from "../../../helpers/loop-harness.ts";

stopAfterEach();

/** A web server on 127.0.0.1 that records what it was asked: the path and the Host header. */
const asked: { path: string; host: string }[] = [];
let server: ReturnType<typeof Bun.serve> | undefined;
afterEach(() => {
  server?.stop(true);
  server = undefined;
  asked.length = 0;
});

const ARTICLE = `<!doctype html><html><head><title>The Parser Notes</title><script>window.evil = "SCRIPT TEXT"</script></head><body>
<nav><a href="/home">Home</a> | <a href="/about">About</a></nav>
<article><h1>How the parser works</h1><p>The parser reads <b>tokens</b> one at a time; see <a href="/docs/tokens">the token list</a>. ${"It keeps a small stack of open nodes and closes them as it goes. ".repeat(12)}</p>
<pre><code>parse(tokens)</code></pre></article><footer>© footer</footer></body></html>`;

function startSite(): string {
  server = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    fetch(request) {
      const url = new URL(request.url);
      asked.push({ path: url.pathname, host: request.headers.get("host") ?? "" });
      const base = `http://127.0.0.1:${server?.port}`;
      switch (url.pathname) {
        case "/article":
          return new Response(ARTICLE, { headers: { "content-type": "text/html; charset=utf-8" } });
        case "/notes.txt":
          return new Response("plain <b>text</b>, kept as is\n", { headers: { "content-type": "text/plain" } });
        case "/logo.png":
          return new Response(new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0, 0, 0, 0]), { headers: { "content-type": "image/png" } });
        case "/big":
          return new Response("x".repeat(200_000), { headers: { "content-type": "text/plain" } });
        case "/moved":
          return Response.redirect(`${base}/article`, 301);
        case "/loop":
          return Response.redirect(`${base}/loop`, 302);
        case "/away":
          return Response.redirect(`http://localhost:${server?.port}/article`, 302);
        case "/to-shop":
          return Response.redirect(`http://shop.test:${server?.port}/article`, 302);
        case "/missing":
          return new Response("<html><body><h1>Not found</h1></body></html>", { status: 404, headers: { "content-type": "text/html" } });
      }
      return new Response("?", { status: 500 });
    },
  });
  return `http://127.0.0.1:${server.port}`;
}

function registryWith(tool = new WebFetchTool()) {
  const registry = new ToolRegistry();
  registry.register(tool);
  return registry;
}

const rules = (...allow: string[]) => () => ({ allow, deny: [] });

async function fetchThroughLoop(url: string, options: { allow?: string[]; gate?: typeof allowAll; tool?: WebFetchTool } = {}) {
  const permissions = withRules(rules(...(options.allow ?? [])), options.gate ?? declineAll, process.cwd());
  const agent = agentWith([reply(toolUse("web_fetch", { url, prompt: "how does it parse?" })), reply(text("Read it."))], registryWith(options.tool), { permissions });
  await agent.run("read the page");
  const [result] = toolResultsOf(standIn().requests[1]!);
  return { text: resultText(result), isError: result?.is_error === true };
}

test("a rule naming 127.0.0.1 lets the model read a local page, as readable Markdown without navigation or scripts", async () => {
  const site = startSite();
  const { text: page, isError } = await fetchThroughLoop(`${site}/article`, { allow: ["WebFetch(domain:127.0.0.1)"] });
  expect(isError).toBe(false);
  expect(page).toContain(`URL: ${site}/article\nStatus: 200\nTitle: The Parser Notes`);
  expect(page).toContain("The parser reads **tokens** one at a time; see [the token list](" + site + "/docs/tokens).");
  expect(page).toContain("```\nparse(tokens)\n```");
  expect(page).not.toContain("SCRIPT TEXT");
  expect(page).not.toContain("About");
  // The model is offered Claude Code's shape, and the rule an "always" would save is per domain.
  expect(standIn().requests[0]!.body.tools?.map((tool) => tool.name)).toEqual(["web_fetch"]);
  expect(suggestedRule("web_fetch", { url: "https://docs.python.org/3/" })).toBe("WebFetch(domain:docs.python.org)");
});

test("no keypress offers a rule that opens the user's own network: localhost and private addresses need one written by hand", () => {
  for (const url of ["http://127.0.0.1:8080/x", "http://localhost/", "http://[::1]/", "http://10.0.0.7/", "http://169.254.169.254/latest/", "http://2130706433/"]) {
    expect([url, suggestedRule("web_fetch", { url })]).toEqual([url, undefined]);
  }
  // A public address or a name is offered: its rule never reaches a private address (see below).
  expect(suggestedRule("web_fetch", { url: "http://8.8.8.8/" })).toBe("WebFetch(domain:8.8.8.8)");
  expect(suggestedRule("web_fetch", { url: "http://evil.test/" })).toBe("WebFetch(domain:evil.test)");
});

test("one 'always' for a public name does not open private addresses when its DNS later points at them", async () => {
  const port = startSite().split(":").at(-1);
  const rule = suggestedRule("web_fetch", { url: "http://evil.test/page" }) as string;
  expect(rule).toBe("WebFetch(domain:evil.test)");
  for (const address of ["127.0.0.1", "169.254.169.254", "::1"]) {
    const tool = new WebFetchTool({ resolve: async (host) => (host === "evil.test" ? [address] : []) });
    const { text: refusal, isError } = await fetchThroughLoop(`http://evil.test:${port}/notes.txt`, { allow: [rule], tool });
    expect(isError).toBe(true);
    expect(refusal).toContain(`evil.test resolves to ${address}`);
    expect(refusal).toContain("does not reach the user's own network through a name, even one a rule allows");
    const named = address.includes(":") ? `[${address}]` : address;
    expect(refusal).toContain(`WebFetch(domain:${named}) in permissions.allow`);
    await standIn().stop();
  }
  expect(asked).toEqual([]);
});

test("without a rule naming the host, loopback is refused before any request, even with every call allowed", async () => {
  const site = startSite();
  for (const allow of [[], ["WebFetch"], ["WebFetch(domain:*.0.0.1)"]]) {
    const { text: refusal, isError } = await fetchThroughLoop(`${site}/article`, { allow, gate: allowAll });
    expect(isError).toBe(true);
    expect(refusal).toContain("127.0.0.1 is a loopback address (127.0.0.1)");
    expect(refusal).toContain("WebFetch(domain:127.0.0.1) in permissions.allow");
    await standIn().stop();
  }
  expect(asked).toEqual([]);
});

test("numeric and IPv6 spellings of loopback are the same address, refused the same way", async () => {
  const port = new URL(startSite()).port;
  const tool = new WebFetchTool();
  for (const url of [`http://2130706433:${port}/article`, `http://0x7f.1:${port}/article`, `http://0177.0.0.1:${port}/article`, `http://[::ffff:127.0.0.1]:${port}/article`, `http://[::1]:${port}/article`, "http://169.254.169.254/latest/meta-data/", "http://[fd00::1]/"]) {
    const result = await tool.execute({ url }, { allowedBy: ["WebFetch(domain:example.com)"] });
    expect([url, result.isError, result.content]).toEqual([url, true, expect.stringMatching(/is an? (loopback|link-local|unique-local) address/)]);
  }
  // The decimal form is 127.0.0.1 to the URL parser too: the rule naming that host covers it.
  expect((await tool.execute({ url: `http://2130706433:${port}/notes.txt` }, { allowedBy: ["WebFetch(domain:127.0.0.1)"] })).isError).toBe(false);
  expect(asked.map((a) => a.path)).toEqual(["/notes.txt"]);
});

test("a name that resolves to a private address is refused even with its rule; localhost with its rule goes to the address checked", async () => {
  const port = startSite().split(":").at(-1);
  const resolved: string[] = [];
  const tool = new WebFetchTool({ resolve: async (host) => (resolved.push(host), ["127.0.0.1"]) });
  for (const allowedBy of [["WebFetch"], ["WebFetch(domain:intranet.test)"]]) {
    const refused = await tool.execute({ url: `http://intranet.test:${port}/notes.txt` }, { allowedBy });
    expect(refused.content).toContain("intranet.test resolves to 127.0.0.1, a loopback address");
  }
  expect(asked).toEqual([]);
  const read = await tool.execute({ url: `http://localhost:${port}/notes.txt` }, { allowedBy: ["WebFetch(domain:localhost)"] });
  expect(read.content).toContain("plain <b>text</b>, kept as is");
  // Pinned: no second lookup could answer differently; the server saw the name in Host.
  expect(asked).toEqual([{ path: "/notes.txt", host: `localhost:${port}` }]);
  expect(resolved).toEqual(["intranet.test", "intranet.test", "localhost"]);
});

test("redirects: followed on the same host, checked again at every hop, reported (not followed) to another host, bounded", async () => {
  const site = startSite();
  const port = new URL(site).port;
  const allowed = { allowedBy: ["WebFetch(domain:127.0.0.1)"] };
  const tool = new WebFetchTool({ resolve: async () => ["127.0.0.1"] });
  const moved = await tool.execute({ url: `${site}/moved` }, allowed);
  expect(moved.content).toContain(`URL: ${site}/article`);
  const away = await tool.execute({ url: `${site}/away` }, allowed);
  expect(away).toEqual({ isError: false, content: expect.stringContaining(`points to another host: http://localhost:${port}/article\nIt was not followed.`) });
  const looping = await tool.execute({ url: `${site}/loop` }, allowed);
  expect(looping.content).toContain("more than 5 redirects");
  expect(asked.filter((a) => a.path === "/loop")).toHaveLength(6);
  // localhost is named, www.localhost (the same site, so followed) is a name: the hop to it is checked and refused.
  asked.length = 0;
  server!.reload({ fetch: (request) => (asked.push({ path: new URL(request.url).pathname, host: request.headers.get("host") ?? "" }), Response.redirect(`http://www.localhost:${port}/article`, 302)) });
  const hop = await tool.execute({ url: `http://localhost:${port}/start` }, { allowedBy: ["WebFetch(domain:localhost)", "WebFetch(domain:www.localhost)"] });
  expect(hop.content).toContain("www.localhost resolves to 127.0.0.1, a loopback address");
  expect(asked.map((a) => a.host)).toEqual([`localhost:${port}`]);
});

test("text is returned as is, binaries refused, errors flagged, size capped on download and on output", async () => {
  const site = startSite();
  const tool = new WebFetchTool();
  const allowed = { allowedBy: ["WebFetch(domain:127.0.0.1)"] };
  expect((await tool.execute({ url: `${site}/notes.txt` }, allowed)).content).toEndWith("\n\nplain <b>text</b>, kept as is\n");
  expect(await tool.execute({ url: `${site}/logo.png` }, allowed)).toEqual({ isError: true, content: `Error: ${site}/logo.png is image/png (8 bytes): web_fetch returns only HTML and text` });
  const missing = await tool.execute({ url: `${site}/missing` }, allowed);
  expect([missing.isError, missing.content]).toEqual([true, expect.stringContaining("Status: 404")]);
  const big = await tool.execute({ url: `${site}/big` }, allowed);
  expect(big.content).toContain("[output cut: 140,000 of 200,000 characters not shown]");
  const capped = await guardedFetch(`${site}/big`, { privateHostAllowed: () => true, maxBytes: 1000 });
  expect(capped).toMatchObject({ kind: "ok", truncated: true });
  expect(capped.kind === "ok" && capped.body.byteLength).toBe(1000);
  for (const url of ["file:///etc/passwd", "ftp://example.com/x", "not a url"]) expect((await tool.execute({ url }, allowed)).content).toMatch(/URLs are not fetched|is not a URL/);
});

test("WebFetch rules as Claude Code writes them, and the mistakes that are refused with a reason", () => {
  expect(parseRule("WebFetch(domain:example.com)")).toMatchObject({ ok: true, rule: { kind: "domain", domain: "example.com" } });
  expect(parseRule("WebFetch(domain:*.Example.com)")).toMatchObject({ ok: true, rule: { kind: "domain", domain: "*.example.com" } });
  expect(parseRule("WebFetch")).toMatchObject({ ok: true, rule: { kind: "tool", tools: ["web_fetch"] } });
  expect(parseRule("WebFetch(example.com)")).toMatchObject({ ok: false, error: expect.stringContaining("write WebFetch(domain:example.com)") });
  expect(parseRule("WebFetch(domain:https://example.com/x)")).toMatchObject({ ok: false, error: expect.stringContaining("without scheme, port or path") });
});
