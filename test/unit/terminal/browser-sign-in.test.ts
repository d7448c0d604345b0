import { describe, expect, test } from "bun:test";
import { browserSignIn, issuerText } from "../../../src/terminal/browser-sign-in.ts";

const URL_TO_OPEN = "https://as.example/authorize?client_id=c&state=s";

describe("signing in at a terminal", () => {
  test("the URL is always printed, then the browser opened", async () => {
    const printed: string[] = [];
    const opened: string[] = [];
    const interaction = browserSignIn({ serverName: "linear", print: (l) => printed.push(l), openBrowser: true, open: async (url) => (opened.push(url), true) });
    await interaction.openAuthorizationUrl(URL_TO_OPEN);
    expect(printed).toEqual([`Sign in to linear in your browser: ${URL_TO_OPEN}`]);
    expect(opened).toEqual([URL_TO_OPEN]);
  });

  test("--no-browser only prints", async () => {
    const printed: string[] = [];
    let opened = 0;
    const interaction = browserSignIn({ serverName: "linear", print: (l) => printed.push(l), openBrowser: false, open: async () => (opened++, true) });
    await interaction.openAuthorizationUrl(URL_TO_OPEN);
    expect(printed).toHaveLength(1);
    expect(opened).toBe(0);
  });

  test("a browser that cannot be opened is a note, not a failure", async () => {
    const printed: string[] = [];
    const interaction = browserSignIn({ serverName: "linear", print: (l) => printed.push(l), openBrowser: true, open: async () => false });
    await interaction.openAuthorizationUrl(URL_TO_OPEN);
    expect(printed[1]).toContain("no browser could be opened: open the link above yourself");
  });

  test("escape sequences in the URL or the name never reach the terminal", async () => {
    const printed: string[] = [];
    const interaction = browserSignIn({ serverName: "x\u001b[2J", print: (l) => printed.push(l), openBrowser: false });
    await interaction.openAuthorizationUrl("https://as.example/a?\u001b]0;title\u0007");
    expect(printed[0]).not.toMatch(/[\u0000-\u001f\u007f-\u009f]/);
  });

  test("the abort signal given is the interaction's (Ctrl-C ends the wait)", () => {
    const cancel = new AbortController();
    expect(browserSignIn({ print: () => {}, openBrowser: false, signal: cancel.signal }).signal).toBe(cancel.signal);
  });
});

describe("issuerText", () => {
  test("an issuer as the server names it, without the parser's trailing slash", () => {
    expect(issuerText("https://mcp.linear.app")).toBe("https://mcp.linear.app");
    expect(issuerText("https://as.example/tenant")).toBe("https://as.example/tenant");
  });

  test("userinfo and query values are masked", () => {
    expect(issuerText("https://user:pw@as.example/?k=secret")).not.toMatch(/pw|secret/);
  });
});
