import { cpus, freemem, release, totalmem, type as osType } from "node:os";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { $ } from "bun";
import { ROOT } from "./paths.ts";

export interface Machine {
  cpu: string;
  cores: number;
  memory: string;
  os: string;
  bun: string;
  node: string;
  catCode: string;
  sdk: string;
  serverEverything: string;
  date: string;
}

function packageVersion(name: string): string {
  try {
    return JSON.parse(readFileSync(join(ROOT, "node_modules", name, "package.json"), "utf8")).version;
  } catch {
    return "not installed";
  }
}

function osName(): string {
  try {
    const pretty = /^PRETTY_NAME="?([^"\n]*)"?/m.exec(readFileSync("/etc/os-release", "utf8"));
    if (pretty) return `${pretty[1]} (${osType()} ${release()})`;
  } catch {
    // Not Linux, or no os-release: the kernel line is enough.
  }
  return `${osType()} ${release()}`;
}

export async function describeMachine(): Promise<Machine> {
  const commit = (await $`git rev-parse --short=12 HEAD`.cwd(ROOT).quiet().nothrow()).stdout.toString().trim();
  const node = (await $`node --version`.quiet().nothrow()).stdout.toString().trim() || "not installed";
  return {
    cpu: cpus()[0]?.model ?? "unknown",
    cores: cpus().length,
    memory: `${(totalmem() / 2 ** 30).toFixed(1)} GiB (${(freemem() / 2 ** 30).toFixed(1)} GiB free at start)`,
    os: osName(),
    bun: Bun.version,
    node,
    catCode: `${JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")).version}${commit ? ` (${commit})` : ""}`,
    sdk: packageVersion("@modelcontextprotocol/sdk"),
    serverEverything: packageVersion("@modelcontextprotocol/server-everything"),
    date: new Date().toISOString().replace(/\.\d+Z$/, "Z"),
  };
}
