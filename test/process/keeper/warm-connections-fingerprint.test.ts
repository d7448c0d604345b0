import { expect, test } from "bun:test";
import { connectionFingerprint } from "../../../src/keeper/connection-fingerprint.ts";
import type { ServerRequest } from "../../../src/keeper/keeper-protocol.ts";
import type { ServerEntry } from "../../../src/mcp/config/server-config.ts";
import { stdioServer } from "../../helpers/keeper-test-client.ts";

/** When a warm connection may be reused: only for the very same entry, launch, roots and version. */
const roots = ["/work"];

function http(headers: Record<string, string> = {}, env: Record<string, string> = {}): ServerRequest {
  const entry: ServerEntry = { name: "remote", scope: "user", source: "/u/mcp.json", ok: true, config: { type: "http", url: "https://example.com/mcp", headers } };
  return { entry, launch: { env, cwd: "/somewhere" } };
}

test("the same request has the same fingerprint, whatever order its keys come in", () => {
  const a = stdioServer("echo", "echo-server", ["a"], { env: { A: "1", B: "2" } });
  const b = stdioServer("echo", "echo-server", ["a"], { env: { B: "2", A: "1" } });
  expect(connectionFingerprint(a, roots, true, "1")).toMatch(/^[0-9a-f]{64}$/);
  expect(connectionFingerprint(b, roots, true, "1")).toBe(connectionFingerprint(a, roots, true, "1"));
});

test("anything a stdio server would start with differently changes it", () => {
  const base = stdioServer("echo", "echo-server", ["a"]);
  const print = (request: ServerRequest, r = roots, version = "1") => connectionFingerprint(request, r, true, version);
  const variants = [
    print(stdioServer("echo", "echo-server", ["b"])),
    print(stdioServer("echo", "other-server", ["a"])),
    print(stdioServer("echo", "echo-server", ["a"], { env: { X: "1" } })),
    print(stdioServer("echo", "echo-server", ["a"], { cwd: "sub" })),
    print(stdioServer("echo2", "echo-server", ["a"])),
    print({ ...base, launch: { ...base.launch, env: { ...base.launch.env, OTHER: "1" } } }),
    print({ ...base, launch: { ...base.launch, cwd: "/elsewhere" } }),
    print(base, ["/work", "/more"]),
    print(base, roots, "2"),
    connectionFingerprint(base, roots, false, "1"),
    print({ ...base, entry: { ...base.entry, scope: "project" } }),
  ];
  expect(new Set([print(base), ...variants]).size).toBe(variants.length + 1);
});

test("an HTTP server's fingerprint follows its entry, not the command's env or folder", () => {
  expect(connectionFingerprint(http({}, { OLDPWD: "/a" }), roots, true, "1")).toBe(connectionFingerprint(http({}, { OLDPWD: "/b" }), roots, true, "1"));
  expect(connectionFingerprint(http({ Authorization: "Bearer 1" }), roots, true, "1")).not.toBe(connectionFingerprint(http({ Authorization: "Bearer 2" }), roots, true, "1"));
});

test("the entry's keepAlive (where --keep-alive is written) does not change it: how long a connection is kept is no reason for another", () => {
  const kept = (keepAlive?: number) => stdioServer("echo", "echo-server", ["a"], keepAlive === undefined ? {} : { keepAlive });
  expect(connectionFingerprint(kept(120), roots, true, "1")).toBe(connectionFingerprint(kept(), roots, true, "1"));
  expect(connectionFingerprint(kept(5), roots, false, "1")).toBe(connectionFingerprint(kept(), roots, false, "1"));
});

test("variables shells and terminals change on their own do not change it; any other variable does", () => {
  const base = stdioServer("echo", "echo-server", ["a"]);
  const withEnv = (env: Record<string, string>) => connectionFingerprint({ ...base, launch: { ...base.launch, env: { ...base.launch.env, ...env } } }, roots, true, "1");
  expect(withEnv({ OLDPWD: "/a", PWD: "/work", SHLVL: "3", _: "/bin/ls", COLUMNS: "80", TMUX_PANE: "%1", VSCODE_NONCE: "n" })).toBe(withEnv({}));
  for (const meaningful of ["TERM", "TMUX", "SSH_AUTH_SOCK", "VSCODE_GIT_IPC_HANDLE", "GPG_TTY", "OLDPWD_X"]) expect(withEnv({ [meaningful]: "1" })).not.toBe(withEnv({}));
});
