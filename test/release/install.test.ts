import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { cpSync, existsSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { archiveName } from "../../scripts/release.ts";
import { VERSION } from "../../src/version.ts";
import { linuxRelease, pathWith, REPO, runBare, tempDir } from "./release-fixture.ts";

const INSTALL_SH = join(REPO, "scripts", "install.sh");
let server: ReturnType<typeof Bun.serve>;
/** `<base>/good/…` serves the release as built; `<base>/tampered/…` the same with another archive under the same sums. */
let base: string;
let expectedVersion: string;

beforeAll(async () => {
  const built = await linuxRelease();
  expectedVersion = `cat-code ${VERSION} (${built.commit})`;

  const tampered = join(tempDir(), "tampered");
  cpSync(built.outDir, tampered, { recursive: true });
  // A well-formed archive with a different `cat-code` in it: only the checksum can tell.
  const impostor = tempDir();
  writeFileSync(join(impostor, "cat-code"), "#!/bin/sh\necho impostor\n", { mode: 0o755 });
  const tar = Bun.spawnSync(["tar", "-czf", join(tampered, archiveName("linux-x64")), "-C", impostor, "cat-code"]);
  if (tar.exitCode !== 0) throw new Error(`tar failed: ${tar.stderr}`);

  const roots: Record<string, string> = { good: built.outDir, tampered };
  server = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    async fetch(request) {
      const [, folder, name] = new URL(request.url).pathname.split("/");
      const root = folder === undefined ? undefined : roots[folder];
      if (!root || !name || name.includes("..")) return new Response("not found", { status: 404 });
      const file = Bun.file(join(root, name));
      return (await file.exists()) ? new Response(file) : new Response("not found", { status: 404 });
    },
  });
  base = `http://127.0.0.1:${server.port}`;
}, 120_000);

afterAll(() => server?.stop(true));

function installEnv(home: string, extra: Record<string, string> = {}): Record<string, string> {
  return { HOME: home, PATH: "/usr/bin:/bin", CAT_CODE_INSTALL_BASE_URL: `${base}/good`, ...extra };
}

describe("install.sh", () => {
  test("the one-line install puts a working cat-code in ~/.cat-code/bin and says how to reach it", async () => {
    const home = tempDir();
    const result = await runBare(["/bin/sh", "-c", `curl -fsSL ${base}/good/install.sh | sh`], installEnv(home), home);
    expect(result.stderr).toBe("");
    expect(result.exitCode).toBe(0);
    const installed = join(home, ".cat-code", "bin", "cat-code");
    expect(result.stdout).toContain(`Installed ${expectedVersion} to ${installed}`);
    expect(result.stdout).toContain(`export PATH="${join(home, ".cat-code", "bin")}:$PATH"`);

    const version = await runBare([installed, "--version"], { HOME: home, PATH: "/usr/bin:/bin" }, home);
    expect(version.stdout).toBe(`${expectedVersion}\n`);
  });

  test.skipIf(!Bun.which("wget") || !Bun.which("shasum"))("works with wget and shasum when curl and sha256sum are missing", async () => {
    const home = tempDir();
    const dir = join(home, "tools");
    const path = pathWith(["sh", "uname", "mktemp", "rm", "awk", "cut", "grep", "tar", "gzip", "mkdir", "cp", "chmod", "mv", "wget", "shasum"]);
    const result = await runBare(["/bin/sh", INSTALL_SH], installEnv(home, { PATH: path, CAT_CODE_INSTALL_DIR: dir }), home);
    expect(result.stderr).toBe("");
    expect(result.exitCode).toBe(0);
    expect(readdirSync(dir)).toEqual(["cat-code"]);
    const version = await runBare([join(dir, "cat-code"), "--version"], { HOME: home }, home);
    expect(version.stdout).toBe(`${expectedVersion}\n`);
  });

  test("refuses an archive whose checksum does not match, and installs nothing", async () => {
    const home = tempDir();
    const dir = join(home, "bin");
    const result = await runBare(["/bin/sh", INSTALL_SH], installEnv(home, { CAT_CODE_INSTALL_BASE_URL: `${base}/tampered`, CAT_CODE_INSTALL_DIR: dir }), home);
    expect(result.exitCode).not.toBe(0);
    expect(result.stderr).toContain(`checksum mismatch for ${archiveName("linux-x64")}`);
    expect(result.stderr).toContain("refusing to install");
    expect(existsSync(join(dir, "cat-code"))).toBe(false);
  });

  test("says so when the release has no archive for the machine", async () => {
    const home = tempDir();
    const dir = join(home, "bin");
    const env = installEnv(home, { CAT_CODE_INSTALL_TARGET: "darwin-arm64", CAT_CODE_INSTALL_DIR: dir });
    const result = await runBare(["/bin/sh", INSTALL_SH], env, home);
    expect(result.exitCode).not.toBe(0);
    expect(result.stderr).toContain(`the release at ${base}/good has no archive for darwin-arm64`);
    expect(existsSync(dir)).toBe(false);
  });

  test("says so when the release cannot be reached", async () => {
    const home = tempDir();
    const result = await runBare(["/bin/sh", INSTALL_SH], installEnv(home, { CAT_CODE_INSTALL_BASE_URL: `${base}/nowhere` }), home);
    expect(result.exitCode).not.toBe(0);
    expect(result.stderr).toContain(`could not download ${base}/nowhere/SHA256SUMS`);
  });
});
