/**
 * Builds what users download instead of cloning: for each platform one archive holding the compiled
 * `cat-code`, README.md and LICENSE, plus `SHA256SUMS` and `install.sh`, in `dist/release/`.
 *
 *   bun scripts/release.ts [--targets linux-x64,darwin-arm64] [--out <dir>]
 *
 * The other platforms' Bun runtimes come from the npm registry the first time (then Bun's cache).
 * Each binary is built by `buildBinary` (scripts/build.ts), the same build as `npm run build`.
 */
import { $ } from "bun";
import { copyFile, mkdir, mkdtemp, readdir, rm, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { parseArgs } from "node:util";
import { VERSION } from "../src/version.ts";
import { buildBinary, gitCommit } from "./build.ts";

const root = join(import.meta.dir, "..");

/** The platforms we ship, by the name in the archive's file name. */
export const TARGETS = {
  "linux-x64": { bun: "bun-linux-x64", windows: false },
  "linux-arm64": { bun: "bun-linux-arm64", windows: false },
  "linux-x64-musl": { bun: "bun-linux-x64-musl", windows: false },
  "darwin-x64": { bun: "bun-darwin-x64", windows: false },
  "darwin-arm64": { bun: "bun-darwin-arm64", windows: false },
  "windows-x64": { bun: "bun-windows-x64", windows: true },
} as const;
export type TargetName = keyof typeof TARGETS;

export interface ReleaseOptions {
  targets?: TargetName[];
  /** Where the archives go; `dist/release` when absent. */
  outDir?: string;
  log?: (line: string) => void;
}

export interface ReleaseArtifact {
  target: TargetName;
  /** The archive's file name inside the output folder. */
  archive: string;
  binaryBytes: number;
  archiveBytes: number;
  sha256: string;
}

export interface Release {
  version: string;
  commit: string;
  outDir: string;
  artifacts: ReleaseArtifact[];
}

export function archiveName(target: TargetName, version = VERSION): string {
  return `cat-code-${version}-${target}.${TARGETS[target].windows ? "zip" : "tar.gz"}`;
}

export async function release(options: ReleaseOptions = {}): Promise<Release> {
  const targets = options.targets ?? (Object.keys(TARGETS) as TargetName[]);
  const outDir = options.outDir ? resolve(options.outDir) : join(root, "dist", "release");
  const log = options.log ?? ((line: string) => console.error(line));
  const docs = ["README.md", "LICENSE"];
  for (const doc of docs) {
    if (!(await Bun.file(join(root, doc)).exists())) throw new Error(`${doc} is missing at the repository root; every archive ships it`);
  }

  const commit = await gitCommit();
  if (!commit) log("warning: not in a git checkout: the binaries will not name a commit");
  else if ((await $`git status --porcelain --untracked-files=no`.cwd(root).quiet().nothrow()).stdout.length > 0) {
    log(`warning: the work tree has uncommitted changes: the binaries say ${commit} but may differ from it`);
  }

  await mkdir(outDir, { recursive: true });
  await removeEarlierRelease(outDir);
  const staging = await mkdtemp(join(tmpdir(), "cat-code-release-"));
  const artifacts: ReleaseArtifact[] = [];
  try {
    for (const target of targets) {
      const started = performance.now();
      const stage = join(staging, target);
      const binary = TARGETS[target].windows ? "cat-code.exe" : "cat-code";
      await buildBinary({ target: TARGETS[target].bun, outfile: join(stage, binary) });
      for (const doc of docs) await copyFile(join(root, doc), join(stage, doc));

      const archive = archiveName(target);
      const files = [binary, ...docs];
      if (TARGETS[target].windows) await writeZip(join(outDir, archive), stage, files);
      else await writeTarGz(join(outDir, archive), stage, files);

      const artifact: ReleaseArtifact = {
        target,
        archive,
        binaryBytes: (await stat(join(stage, binary))).size,
        archiveBytes: (await stat(join(outDir, archive))).size,
        sha256: await sha256(join(outDir, archive)),
      };
      artifacts.push(artifact);
      log(`${target.padEnd(15)} binary ${megabytes(artifact.binaryBytes)}  ${archive} ${megabytes(artifact.archiveBytes)}  (${((performance.now() - started) / 1000).toFixed(1)} s)`);
      await rm(stage, { recursive: true, force: true });
    }
  } finally {
    await rm(staging, { recursive: true, force: true });
  }

  // The installer travels with the release, so `<release url>/install.sh | sh` installs that release.
  await copyFile(join(root, "scripts", "install.sh"), join(outDir, "install.sh"));
  const sums = [...artifacts.map((a) => ({ name: a.archive, sha256: a.sha256 })), { name: "install.sh", sha256: await sha256(join(outDir, "install.sh")) }];
  sums.sort((a, b) => a.name.localeCompare(b.name));
  await Bun.write(join(outDir, "SHA256SUMS"), sums.map((s) => `${s.sha256}  ${s.name}\n`).join(""));
  return { version: VERSION, commit, outDir, artifacts };
}

/** Only what an earlier run wrote: `--out` may name a folder that holds other things. */
async function removeEarlierRelease(outDir: string): Promise<void> {
  for (const name of await readdir(outDir)) {
    if (name === "SHA256SUMS" || name === "install.sh" || /^cat-code-.*\.(tar\.gz|zip)$/.test(name)) await rm(join(outDir, name));
  }
}

async function writeTarGz(archive: string, dir: string, files: string[]): Promise<void> {
  // GNU tar would otherwise record the builder's user name in every entry.
  const gnu = (await $`tar --version`.quiet().nothrow()).stdout.toString().includes("GNU tar");
  const owner = gnu ? ["--owner=0", "--group=0", "--numeric-owner"] : [];
  await $`tar -czf ${archive} ${owner} -C ${dir} ${files}`.quiet();
}

/**
 * A zip with deflated entries, written here so that a release needs no `zip` program. No zip64:
 * every entry and the whole archive must stay under 4 GiB, which a 100 MB binary does.
 */
export async function writeZip(archive: string, dir: string, files: string[], date = new Date()): Promise<void> {
  const dosTime = (date.getHours() << 11) | (date.getMinutes() << 5) | (date.getSeconds() >> 1);
  const dosDate = ((date.getFullYear() - 1980) << 9) | ((date.getMonth() + 1) << 5) | date.getDate();
  const parts: Uint8Array[] = [];
  const central: Uint8Array[] = [];
  let offset = 0;
  for (const name of files) {
    const data = await Bun.file(join(dir, name)).bytes();
    const mode = (await stat(join(dir, name))).mode & 0o777;
    const deflated = Bun.deflateSync(data, { level: 9 });
    const [method, body] = deflated.length < data.length ? [8, deflated] : [0, data];
    const nameBytes = new TextEncoder().encode(name);
    const crc = Bun.hash.crc32(data);
    if (data.length > 0xffffffff || offset > 0xffffffff) throw new Error(`${name} is too large for a zip without zip64`);

    const local = new DataView(new ArrayBuffer(30));
    local.setUint32(0, 0x04034b50, true);
    local.setUint16(4, 20, true); // version needed: 2.0, deflate
    local.setUint16(6, 0x0800, true); // names are UTF-8
    local.setUint16(8, method, true);
    local.setUint16(10, dosTime, true);
    local.setUint16(12, dosDate, true);
    local.setUint32(14, crc, true);
    local.setUint32(18, body.length, true);
    local.setUint32(22, data.length, true);
    local.setUint16(26, nameBytes.length, true);
    local.setUint16(28, 0, true);

    const entry = new DataView(new ArrayBuffer(46));
    entry.setUint32(0, 0x02014b50, true);
    entry.setUint16(4, (3 << 8) | 20, true); // made by Unix, so unzip keeps the mode below
    entry.setUint16(6, 20, true);
    entry.setUint16(8, 0x0800, true);
    entry.setUint16(10, method, true);
    entry.setUint16(12, dosTime, true);
    entry.setUint16(14, dosDate, true);
    entry.setUint32(16, crc, true);
    entry.setUint32(20, body.length, true);
    entry.setUint32(24, data.length, true);
    entry.setUint16(28, nameBytes.length, true);
    entry.setUint32(38, ((0o100000 | mode) << 16) >>> 0, true); // a regular file with its permissions
    entry.setUint32(42, offset, true);

    parts.push(new Uint8Array(local.buffer), nameBytes, body);
    central.push(new Uint8Array(entry.buffer), nameBytes);
    offset += 30 + nameBytes.length + body.length;
  }
  const centralSize = central.reduce((sum, part) => sum + part.length, 0);
  const end = new DataView(new ArrayBuffer(22));
  end.setUint32(0, 0x06054b50, true);
  end.setUint16(8, files.length, true);
  end.setUint16(10, files.length, true);
  end.setUint32(12, centralSize, true);
  end.setUint32(16, offset, true);
  await Bun.write(archive, new Blob([...parts, ...central, new Uint8Array(end.buffer)]));
}

async function sha256(path: string): Promise<string> {
  const hasher = new Bun.CryptoHasher("sha256");
  for await (const chunk of Bun.file(path).stream()) hasher.update(chunk);
  return hasher.digest("hex");
}

function megabytes(bytes: number): string {
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`.padStart(8);
}

function parseTargets(list: string): TargetName[] {
  const names = list.split(",").map((name) => name.trim()).filter(Boolean);
  const unknown = names.filter((name) => !(name in TARGETS));
  if (unknown.length > 0 || names.length === 0) {
    throw new Error(`unknown target ${unknown.join(", ") || "(none given)"}; choose from ${Object.keys(TARGETS).join(", ")}`);
  }
  return names as TargetName[];
}

if (import.meta.main) {
  try {
    const { values } = parseArgs({ options: { targets: { type: "string" }, out: { type: "string" } }, strict: true });
    const started = performance.now();
    const result = await release({
      targets: values.targets === undefined ? undefined : parseTargets(values.targets),
      outDir: values.out,
    });
    console.error(`cat-code ${result.version} (${result.commit || "no commit"}): ${result.artifacts.length} archive(s) and SHA256SUMS in ${result.outDir} in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  } catch (error) {
    console.error(`release: ${(error as Error).message}`);
    process.exit(1);
  }
}
