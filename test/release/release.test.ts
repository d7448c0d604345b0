import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { chmodSync, copyFileSync, cpSync, existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { archiveName, release, writeZip, type Release } from "../../scripts/release.ts";
import { VERSION } from "../../src/version.ts";
import { pathWith, removeTempDirs, REPO, runBare, tempDir } from "./release-fixture.ts";

let built: Release;
/** The linux-x64 archive unpacked into a folder of its own. */
let unpacked: string;

// One linux-x64 release, the slow part (a few seconds), shared by every test below.
beforeAll(async () => {
  built = await release({ targets: ["linux-x64"], outDir: join(tempDir(), "release"), log: () => {} });
  unpacked = join(tempDir(), "cat-code");
  mkdirSync(unpacked);
  const tar = Bun.spawnSync(["tar", "-xzf", join(built.outDir, archiveName("linux-x64")), "-C", unpacked]);
  if (tar.exitCode !== 0) throw new Error(`tar failed: ${tar.stderr}`);
}, 120_000);

afterAll(removeTempDirs);

describe("the release folder", () => {
  test("holds one archive per target, SHA256SUMS and install.sh", () => {
    expect(readdirSync(built.outDir).sort()).toEqual(["SHA256SUMS", `cat-code-${VERSION}-linux-x64.tar.gz`, "install.sh"]);
  });

  test("the archive holds the binary, README.md and LICENSE, the binary executable", () => {
    expect(readdirSync(unpacked).sort()).toEqual(["LICENSE", "README.md", "cat-code"]);
    expect(statSync(join(unpacked, "cat-code")).mode & 0o111).toBe(0o111);
    expect(readFileSync(join(unpacked, "LICENSE"), "utf8")).toContain("MIT License");
    expect(readFileSync(join(unpacked, "README.md"), "utf8")).toBe(readFileSync(join(REPO, "README.md"), "utf8"));
  });

  test("sha256sum -c SHA256SUMS passes, and the sums cover every archive", () => {
    const check = Bun.spawnSync(["sha256sum", "-c", "SHA256SUMS"], { cwd: built.outDir });
    expect(check.stdout.toString()).toContain(`cat-code-${VERSION}-linux-x64.tar.gz: OK`);
    expect(check.exitCode).toBe(0);
    const listed = readFileSync(join(built.outDir, "SHA256SUMS"), "utf8").trim().split("\n").map((line) => line.split("  ")[1]);
    const archives = readdirSync(built.outDir).filter((name) => /\.(tar\.gz|zip)$/.test(name));
    expect(archives.length).toBeGreaterThan(0);
    for (const archive of archives) expect(listed).toContain(archive);
  });

  test("--targets refuses a name it does not know, before building anything", () => {
    const out = join(tempDir(), "release");
    const result = Bun.spawnSync([process.execPath, join(REPO, "scripts", "release.ts"), "--targets", "linux-x64,linux-x65", "--out", out]);
    expect(result.exitCode).toBe(1);
    expect(result.stderr.toString()).toContain("unknown target linux-x65");
    expect(existsSync(out)).toBe(false);
  });
});

describe("the Linux x64 binary, unpacked, runs with nothing but itself", () => {
  let work: string;
  let home: string;
  let echoServer: string;
  const bare = () => ({ HOME: home, PATH: "/usr/bin:/bin" });

  beforeAll(() => {
    const root = tempDir();
    work = join(root, "empty");
    home = join(root, "home");
    mkdirSync(work);
    mkdirSync(home);
    echoServer = join(root, "servers", "echo-server.sh");
    mkdirSync(dirname(echoServer));
    copyFileSync(join(REPO, "fixtures", "echo-server.sh"), echoServer);
    chmodSync(echoServer, 0o755);
    // Nothing it could borrow modules from: no node_modules in the folders it runs in or above.
    for (let dir = work; dir !== dirname(dir); dir = dirname(dir)) expect(existsSync(join(dir, "node_modules"))).toBe(false);
  });

  test("--version names the version and the commit it was built from", async () => {
    // The commit release() read at build time: others may commit to this tree while the tests run.
    expect(built.commit).toMatch(/^[0-9a-f]{12}$/);
    expect(Bun.spawnSync(["git", "cat-file", "-e", `${built.commit}^{commit}`], { cwd: REPO }).exitCode).toBe(0);
    const result = await runBare([join(unpacked, "cat-code"), "--version"], bare(), work);
    expect(result).toEqual({ exitCode: 0, stdout: `cat-code ${VERSION} (${built.commit})\n`, stderr: "" });
  });

  test("mcp list connects to a server named in CAT_CODE_HOME/mcp.json", async () => {
    const catHome = join(home, "config");
    mkdirSync(catHome);
    writeFileSync(join(catHome, "mcp.json"), JSON.stringify({ mcpServers: { echo: { command: echoServer } } }));
    const result = await runBare([join(unpacked, "cat-code"), "mcp", "list"], { ...bare(), CAT_CODE_HOME: catHome }, work);
    expect(result.stdout).toMatch(/^echo\s+CONNECTED\s+1 tool\(s\)/m);
    expect(result.exitCode).toBe(0);
  });

  test("mcp call --stdio echoes through the fixture server", async () => {
    const result = await runBare([join(unpacked, "cat-code"), "mcp", "call", "--stdio", echoServer, "echo", "--json", '{"text":"hi"}'], bare(), work);
    expect(result).toEqual({ exitCode: 0, stdout: "hi\n", stderr: "" });
  });

  test("mcp call works on a PATH that has no node and no bun at all", async () => {
    // The fixture server needs bash and sed; the binary needs nothing.
    const path = pathWith(["bash", "sed"]);
    const env = { HOME: home, PATH: path };
    const lookup = await runBare(["/bin/sh", "-c", "command -v node || command -v bun || echo none"], env, work);
    expect(lookup.stdout).toBe("none\n");
    const result = await runBare([join(unpacked, "cat-code"), "mcp", "call", "--stdio", echoServer, "echo", "--json", '{"text":"hi"}'], env, work);
    expect(result).toEqual({ exitCode: 0, stdout: "hi\n", stderr: "" });
  });
});

describe("writeZip, for the Windows archive", () => {
  test.skipIf(!Bun.which("unzip"))("writes a zip that unzip checks and unpacks to the same bytes and modes", async () => {
    const source = tempDir();
    const program = new Uint8Array(200_000).map((_, i) => (i * 7919) % 251);
    writeFileSync(join(source, "cat-code.exe"), program);
    chmodSync(join(source, "cat-code.exe"), 0o755);
    writeFileSync(join(source, "LICENSE"), "MIT License\n".repeat(50));
    writeFileSync(join(source, "empty"), "");
    const zip = join(tempDir(), "test.zip");
    await writeZip(zip, source, ["cat-code.exe", "LICENSE", "empty"]);
    expect(Bun.spawnSync(["unzip", "-t", zip]).exitCode).toBe(0);
    const out = tempDir();
    expect(Bun.spawnSync(["unzip", "-q", zip, "-d", out]).exitCode).toBe(0);
    expect(new Uint8Array(readFileSync(join(out, "cat-code.exe")))).toEqual(program);
    expect(readFileSync(join(out, "LICENSE"), "utf8")).toBe("MIT License\n".repeat(50));
    expect(readFileSync(join(out, "empty"), "utf8")).toBe("");
    expect(statSync(join(out, "cat-code.exe")).mode & 0o777).toBe(0o755);
  });
});

describe("install.sh", () => {
  const INSTALL_SH = join(REPO, "scripts", "install.sh");
  let server: ReturnType<typeof Bun.serve>;
  /** `<base>/good/…` serves the release as built; `<base>/tampered/…` the same with another archive under the same sums. */
  let base: string;
  let expectedVersion: string;

  beforeAll(() => {
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
  });

  afterAll(() => server?.stop(true));

  function installEnv(home: string, extra: Record<string, string> = {}): Record<string, string> {
    return { HOME: home, PATH: "/usr/bin:/bin", CAT_CODE_INSTALL_BASE_URL: `${base}/good`, ...extra };
  }

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
