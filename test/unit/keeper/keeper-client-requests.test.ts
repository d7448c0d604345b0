import { expect, test } from "bun:test";
import { serverRequest } from "../../../src/cli/mcp/warm-server-access.ts";
import { parseServerEntry } from "../../../src/mcp/config/load-config.ts";

const parent = { PATH: "/bin", HOME: "/home/u", ANTHROPIC_API_KEY: "sk-ant-secret", GITHUB_TOKEN: "ghp_secret", _: "/usr/bin/time" };
const entry = (raw: Record<string, unknown>) => parseServerEntry("s", raw, "user", "/home/u/.cat-code/mcp.json", {});

test("a stdio server's launch is the environment a cold command would give it, from the command's folder", () => {
  const request = serverRequest(entry({ command: "srv", env: { MODE: "x" } }), "/work/project", parent);
  expect(request.launch).toEqual({ env: { PATH: "/bin", HOME: "/home/u", MODE: "x" }, cwd: "/work/project" });
});

test("a secret the entry names is passed on, as cold; the shell's `_` is not (it would split one server into many)", () => {
  const request = serverRequest(entry({ command: "srv", env: { GITHUB_TOKEN: "ghp_named" } }), "/p", parent);
  expect(request.launch.env).toEqual({ PATH: "/bin", HOME: "/home/u", GITHUB_TOKEN: "ghp_named" });
});

test("an HTTP server gets no environment: nothing of the command's reaches the keeper for it", () => {
  expect(serverRequest(entry({ type: "http", url: "http://127.0.0.1:1/mcp" }), "/p", parent).launch.env).toEqual({});
});
