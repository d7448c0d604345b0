import { expect, test } from "bun:test";
import { browserCommand, openInBrowser } from "../../../src/system/open-in-browser.ts";

test("the link is one argument of the platform's opener, never a shell command", () => {
  const url = "https://pay.example/a?b=1&c=$(touch PWNED)";
  expect(browserCommand(url, "darwin")).toEqual(["open", url]);
  expect(browserCommand(url, "linux")).toEqual(["xdg-open", url]);
  // cmd's `start` would read `&` as a second command.
  expect(browserCommand(url, "win32")).toEqual(["rundll32", "url.dll,FileProtocolHandler", url]);
});

test("no opener installed resolves false instead of throwing", async () => {
  const path = process.env.PATH;
  process.env.PATH = "/nonexistent";
  try {
    expect(await openInBrowser("https://example.com/")).toBe(false);
  } finally {
    process.env.PATH = path;
  }
});
