import { describe, expect, test } from "bun:test";
import { parseElicitationRequest } from "../../../src/mcp/client/elicitation.ts";
import { declinedElicitation, defaultsOrDecline } from "../../../src/terminal/declined-elicitation.ts";

async function declineOf(server: string, params: unknown): Promise<{ result: unknown; lines: string[] }> {
  const lines: string[] = [];
  const result = await declinedElicitation((line) => lines.push(line))(parseElicitationRequest(server, params));
  return { result, lines };
}

test("a form is declined with one stderr line naming the server, the message and the fields", async () => {
  const { result, lines } = await declineOf("github", {
    message: "Please provide your contact information",
    requestedSchema: { type: "object", properties: { name: { type: "string" }, email: { type: "string", format: "email" } } },
  });
  expect(result).toEqual({ action: "decline" });
  expect(lines).toEqual([
    'cat-code: github asked for input ("Please provide your contact information", fields: name, email) — declined: run it in the REPL to answer',
  ]);
});

test("a link is declined naming only its origin: the path and query may carry a one-time code", async () => {
  const { result, lines } = await declineOf("pay", { mode: "url", message: "Pay here", url: "https://pay.example/checkout?token=SECRET#frag" });
  expect(result).toEqual({ action: "decline" });
  expect(lines).toEqual(['cat-code: pay asked you to open a link on https://pay.example ("Pay here") — declined: run it in the REPL to answer']);
});

test("what the server wrote is sanitized and bounded: one line however hostile", async () => {
  const properties = Object.fromEntries(Array.from({ length: 12 }, (_, i) => [`f${i}\u001b[2J`, { type: "string" }]));
  const { lines } = await declineOf("evil\u001b]0;owned\u0007", { message: `line one\nline two\u001b[31m${"x".repeat(5000)}😀`, requestedSchema: { type: "object", properties } });
  expect(lines).toHaveLength(1);
  const line = lines[0]!;
  expect(line).not.toMatch(/[\u0000-\u001f\u007f-\u009f]/);
  expect(line).toStartWith('cat-code: evil asked for input ("line one line two');
  expect(line).toContain("xxx…\", fields: f0, f1, f2, f3, f4, f5, f6, f7, and 4 more) — declined");
  expect(line.length).toBeLessThan(600);
});

describe("--elicitation accept-defaults (defaultsOrDecline)", () => {
  async function answerOf(params: unknown): Promise<{ result: unknown; lines: string[] }> {
    const lines: string[] = [];
    const result = await defaultsOrDecline((line) => lines.push(line))(parseElicitationRequest("crm", params));
    return { result, lines };
  }
  const schema = (properties: Record<string, object>, required: string[] = []) => ({ type: "object", properties, required });

  test("a form whose fields all have defaults (or are optional) is accepted without a word", async () => {
    const { result, lines } = await answerOf({ message: "Who?", requestedSchema: schema({ name: { type: "string", default: "Ada" }, note: { type: "string" } }, ["name"]) });
    expect(result).toEqual({ action: "accept", content: { name: "Ada" } });
    expect(lines).toEqual([]);
  });

  test("a required field without a default is declined with a line that says so and names the field", async () => {
    const { result, lines } = await answerOf({ message: "Which email address?", requestedSchema: schema({ email: { type: "string", format: "email" } }, ["email"]) });
    expect(result).toEqual({ action: "decline" });
    expect(lines).toEqual([
      'cat-code: crm asked for input ("Which email address?", fields: email) — declined: accept-defaults has no default for the required field email; run it in the REPL to answer',
    ]);
  });

  test("several such fields are all named, sanitized and bounded", async () => {
    const properties = Object.fromEntries(Array.from({ length: 10 }, (_, i) => [`f${i}\u001b[2J`, { type: "string" }]));
    const { lines } = await answerOf({ message: "m", requestedSchema: schema(properties, Object.keys(properties)) });
    expect(lines).toHaveLength(1);
    expect(lines[0]).not.toMatch(/[\u0000-\u001f\u007f-\u009f]/);
    expect(lines[0]).toEndWith("declined: accept-defaults has no default for the required fields f0, f1, f2, f3, f4, f5, f6, f7, and 2 more; run it in the REPL to answer");
  });

  test("a link is declined with a line saying it needs consent, naming only its origin", async () => {
    const { result, lines } = await answerOf({ mode: "url", message: "Sign in", url: "https://idp.example/login?code=SECRET" });
    expect(result).toEqual({ action: "decline" });
    expect(lines).toEqual(['cat-code: crm asked you to open a link on https://idp.example ("Sign in") — declined: accept-defaults never opens a link: that needs your consent; run it in the REPL to answer']);
  });
});
