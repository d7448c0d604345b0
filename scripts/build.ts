/**
 * Builds the single executable `dist/cat-code` with `bun build --compile`.
 * The binary does not read `.env` or `bunfig.toml` from the folder it is run in: a user's project
 * files must not change how cat-code behaves.
 */
import { $ } from "bun";
import { join } from "node:path";

const root = join(import.meta.dir, "..");

export interface BuildOptions {
  /** A Bun target such as `bun-linux-x64`; the current machine when absent. */
  target?: string;
  outfile?: string;
  minify?: boolean;
  bytecode?: boolean;
}

/** The commit the tree is at, or "" outside a git checkout. */
export async function gitCommit(): Promise<string> {
  const result = await $`git rev-parse --short=12 HEAD`.cwd(root).quiet().nothrow();
  return result.exitCode === 0 ? result.stdout.toString().trim() : "";
}

export async function buildBinary(options: BuildOptions = {}): Promise<string> {
  const outfile = options.outfile ?? join(root, "dist", "cat-code");
  const result = await Bun.build({
    entrypoints: [join(root, "src/cli/main.ts")],
    compile: {
      outfile,
      ...(options.target ? { target: options.target as Bun.Build.CompileTarget } : {}),
      autoloadDotenv: false,
      autoloadBunfig: false,
    },
    minify: options.minify ?? false,
    bytecode: options.bytecode ?? false,
    // Bytecode needs an explicit module format, and main.ts uses top-level await, so ESM.
    ...(options.bytecode ? { format: "esm" as const } : {}),
    define: { CAT_CODE_COMMIT: JSON.stringify(await gitCommit()) },
  });
  if (!result.success) {
    for (const message of result.logs) console.error(message);
    throw new Error(`build failed for ${options.target ?? "this machine"}`);
  }
  return outfile;
}

if (import.meta.main) {
  const outfile = await buildBinary();
  console.error(`built ${outfile}`);
}
