import { describe, expect, test } from "bun:test";
import { mkdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { loadConfiguredServers } from "../../../../src/mcp/config/configured-servers.ts";
import { approvalsPath, entryFingerprint, pendingApprovals, recordApproval } from "../../../../src/mcp/config/project-approval.ts";
import type { ServerEntry } from "../../../../src/mcp/config/server-config.ts";
import { tempDir } from "../../../helpers/paths.ts";

/** A CAT_CODE_HOME and a project folder, each fresh. */
function setup(user: Record<string, unknown>, project: Record<string, unknown> | undefined) {
  const home = tempDir("cat-code-home-");
  const cwd = tempDir("cat-code-project-");
  writeFileSync(join(home, "mcp.json"), JSON.stringify({ mcpServers: user }));
  if (project) writeFileSync(join(cwd, ".mcp.json"), JSON.stringify({ mcpServers: project }));
  const env = { CAT_CODE_HOME: home };
  return { home, cwd, env, load: () => loadConfiguredServers({ cwd, env }) };
}

const byName = (servers: ServerEntry[]) => Object.fromEntries(servers.map((s) => [s.name, s]));

describe("entryFingerprint", () => {
  test("ignores key order, follows content, and hashes the entry before ${VAR} expansion", () => {
    expect(entryFingerprint({ command: "x", args: ["a"] })).toBe(entryFingerprint({ args: ["a"], command: "x" }));
    expect(entryFingerprint({ command: "x", args: ["a"] })).not.toBe(entryFingerprint({ command: "x", args: ["b"] }));
    expect(entryFingerprint({ command: "${BIN}" })).not.toBe(entryFingerprint({ command: "/usr/bin/x" }));
    expect(entryFingerprint({ command: "x" })).toMatch(/^sha256:[0-9a-f]{64}$/);
  });
});

describe("loadConfiguredServers", () => {
  test("loads both scopes; a project entry takes the place of the user entry of the same name", () => {
    const { load, cwd, home } = setup({ a: { command: "user-a" }, shared: { command: "user-shared" } }, { shared: { command: "project-shared" }, b: { command: "project-b" } });
    const { servers, shadowed, warnings } = load();
    expect(warnings).toEqual([]);
    expect(servers.map((s) => [s.name, s.scope])).toEqual([["a", "user"], ["shared", "project"], ["b", "project"]]);
    expect(servers[1]).toMatchObject({ ok: true, source: join(cwd, ".mcp.json"), config: { command: "project-shared" } });
    expect(shadowed.map((s) => [s.name, s.source])).toEqual([["shared", join(home, "mcp.json")]]);
  });

  test("project entries need approval; user entries never do", () => {
    const { load } = setup({ a: { command: "x" } }, { b: { command: "y" } });
    const servers = byName(load().servers);
    expect(servers.a?.trust).toBeUndefined();
    expect(servers.b?.trust).toBe("needs-approval");
  });

  test("an approval lets the entry start; a changed entry needs approval again", async () => {
    const { load, cwd, env } = setup({}, { b: { command: "y", env: { T: "${TOKEN:-none}" } } });
    const [entry] = pendingApprovals(load().servers);
    expect(entry?.name).toBe("b");
    const approved = await recordApproval(entry as ServerEntry, "approved", env);
    expect(approved.trust).toBeUndefined();
    expect(load().servers[0]?.trust).toBeUndefined();

    writeFileSync(join(cwd, ".mcp.json"), JSON.stringify({ mcpServers: { b: { command: "y", args: ["--evil"], env: { T: "${TOKEN:-none}" } } } }));
    expect(load().servers[0]?.trust).toBe("needs-approval");
  });

  test("the same content in another folder is not approved by it", async () => {
    const first = setup({}, { b: { command: "y" } });
    await recordApproval(first.load().servers[0] as ServerEntry, "approved", first.env);
    const otherCwd = tempDir("cat-code-project-");
    writeFileSync(join(otherCwd, ".mcp.json"), JSON.stringify({ mcpServers: { b: { command: "y" } } }));
    expect(loadConfiguredServers({ cwd: otherCwd, env: first.env }).servers[0]?.trust).toBe("needs-approval");
  });

  test("approvals are keyed by the folder's real path, so a symlinked way in is the same project", async () => {
    const { load, cwd, env } = setup({}, { b: { command: "y" } });
    await recordApproval(load().servers[0] as ServerEntry, "approved", env);
    const link = join(tempDir(), "link");
    symlinkSync(cwd, link);
    expect(loadConfiguredServers({ cwd: link, env }).servers[0]?.trust).toBeUndefined();
  });

  test("a refusal holds whatever the entry becomes, and is not asked about again", async () => {
    const { load, cwd, env } = setup({}, { b: { command: "y" } });
    await recordApproval(load().servers[0] as ServerEntry, "denied", env);
    writeFileSync(join(cwd, ".mcp.json"), JSON.stringify({ mcpServers: { b: { command: "z" } } }));
    const servers = load().servers;
    expect(servers[0]?.trust).toBe("denied");
    expect(pendingApprovals(servers)).toEqual([]);
  });

  test("disabled and invalid project entries are not asked about", () => {
    const { load } = setup({}, { off: { command: "y", disabled: true }, bad: { command: "" }, ok: { command: "y" } });
    expect(pendingApprovals(load().servers).map((s) => s.name)).toEqual(["ok"]);
  });

  test("a corrupt approvals.json is a warning that names it, and every project entry waits", async () => {
    const { load, env } = setup({}, { b: { command: "y" } });
    await recordApproval(load().servers[0] as ServerEntry, "approved", env);
    writeFileSync(approvalsPath(env), "{ nope");
    const { servers, warnings } = load();
    expect(servers[0]?.trust).toBe("needs-approval");
    expect(warnings[0]).toContain(approvalsPath(env));
  });

  test("recording keeps every other record, and the file is the user's alone", async () => {
    const { load, env } = setup({}, { a: { command: "x" }, b: { command: "y" } });
    const [a, b] = load().servers as [ServerEntry, ServerEntry];
    await recordApproval(a, "approved", env);
    await recordApproval(b, "denied", env);
    const recorded = JSON.parse(readFileSync(approvalsPath(env), "utf8")).projects;
    const folder = Object.keys(recorded)[0] as string;
    expect(recorded[folder].a).toMatchObject({ decision: "approved", fingerprint: entryFingerprint({ command: "x" }) });
    expect(recorded[folder].b).toMatchObject({ decision: "denied" });
    expect(statSync(approvalsPath(env)).mode & 0o777).toBe(0o600);
  });

  test("no project file: only the user's servers, nothing read from approvals", () => {
    const { load, env } = setup({ a: { command: "x" } }, undefined);
    mkdirSync(approvalsPath(env)); // would fail to read as a file
    const { servers, warnings } = load();
    expect(servers.map((s) => s.name)).toEqual(["a"]);
    expect(warnings).toEqual([]);
  });
});
