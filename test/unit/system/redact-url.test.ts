import { expect, test } from "bun:test";
import { redactUrl } from "../../../src/system/redact-url.ts";

test("userinfo and query values are masked; host, path and query names stay", () => {
  expect(redactUrl("https://alice:s3cret@example.com:8443/mcp?api_key=tok123&mode=x")).toBe(
    "https://***:***@example.com:8443/mcp?api_key=***&mode=***",
  );
});

test("a URL without secrets is shown as it is", () => {
  expect(redactUrl("http://127.0.0.1:3000/mcp")).toBe("http://127.0.0.1:3000/mcp");
});

test("a repeated parameter never leaks either value", () => {
  expect(redactUrl("https://h.example/p?t=AAA&t=BBB")).toBe("https://h.example/p?t=***&t=***");
});

test("text that is not a URL is masked whole", () => {
  expect(redactUrl("not a url s3cret")).toBe("***");
});

test("a fragment is masked whole", () => {
  expect(redactUrl("https://h.example/cb#access_token=abc&state=1")).toBe("https://h.example/cb#***");
});
