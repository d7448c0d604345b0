import { stat } from "node:fs/promises";
import { join } from "node:path";
import * as v from "valibot";
import type { Tool, ToolContext, ToolResult } from "../tool.ts";
import { limitOutput } from "./output-limit.ts";
import { outsideProject } from "./project-scope.ts";
import { SKIPPED_DIRECTORIES, walkFiles } from "./project-walk.ts";
import { describeFsError, readRegularFile } from "./regular-file.ts";
import { errorResult, okResult, parseToolInput } from "./tool-input.ts";
import { displayPath, resolveInWorkspace } from "./workspace-path.ts";

const DEFAULT_MAX_RESULTS = 200;
const MAX_LINE_LENGTH = 500;
/** Bigger files are logs or data; searching them line by line in JS is slow and rarely wanted. */
const MAX_FILE_BYTES = 5 * 1024 * 1024;

const DESCRIPTION = `Searches file contents with a regular expression (JavaScript syntax) and returns matching lines as path:line:text.
- path: a file or a directory to search (default: the working directory). Paths outside the working directory need the user's permission.
- glob: only search files whose path matches, e.g. "*.ts" or "src/**/*.tsx".
- Files ignored by .gitignore, binary files, hidden files, node_modules and .git are skipped; symlinks are not followed. At most max_results lines (default ${DEFAULT_MAX_RESULTS}).`;

const GrepInput = v.object({
  pattern: v.pipe(v.string(), v.minLength(1, "give a pattern")),
  path: v.optional(v.string()),
  glob: v.optional(v.string()),
  ignore_case: v.optional(v.boolean()),
  max_results: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1))),
});

export class GrepTool implements Tool {
  readonly name = "grep";
  readonly description = DESCRIPTION;
  readonly isReadOnly = true;
  readonly inputSchema = {
    type: "object",
    properties: {
      pattern: { type: "string", description: "A JavaScript regular expression" },
      path: { type: "string", description: "The file or directory to search" },
      glob: { type: "string", description: "Only files matching this glob" },
      ignore_case: { type: "boolean", description: "Match without regard to case" },
      max_results: { type: "integer", minimum: 1, description: `Stop after this many matching lines (default ${DEFAULT_MAX_RESULTS})` },
    },
    required: ["pattern"],
  };

  /** `alsoReadable`: a folder searched without asking besides the project (the saved tool outputs). */
  constructor(
    private readonly cwd: string,
    private readonly alsoReadable?: () => string | undefined,
  ) {}

  needsPermission(input: Record<string, unknown>): Promise<boolean> {
    return outsideProject(this.cwd, input.path ?? ".", this.alsoReadable);
  }

  async execute(input: Record<string, unknown>, context: ToolContext = {}): Promise<ToolResult> {
    const parsed = parseToolInput(this.name, GrepInput, input);
    if (!parsed.ok) return parsed.result;
    const { pattern, path = ".", glob, ignore_case: ignoreCase, max_results: maxResults = DEFAULT_MAX_RESULTS } = parsed.value;
    let regex: RegExp;
    try {
      regex = new RegExp(pattern, ignoreCase ? "i" : "");
    } catch (error) {
      return errorResult(`invalid regular expression: ${(error as Error).message}`);
    }
    const target = resolveInWorkspace(this.cwd, path);
    let files: string[];
    try {
      const info = await stat(target);
      if (!info.isDirectory() && !info.isFile()) return errorResult(`${displayPath(this.cwd, target)} is not a regular file or a directory`);
      files = info.isDirectory() ? await listFiles(target, this.cwd, glob, context.signal) : [target];
    } catch (error) {
      return errorResult(describeFsError(displayPath(this.cwd, target), error));
    }

    const lines: string[] = [];
    let truncated = false;
    for (const file of files) {
      if (context.signal?.aborted) return errorResult("cancelled by the user");
      const text = await readSearchable(file, context.signal);
      if (text === undefined) continue;
      const fileLines = text.split("\n");
      for (let i = 0; i < fileLines.length; i++) {
        // A big file is many lines: a cancelled turn should not wait for all of them.
        if (i % 10_000 === 9_999 && context.signal?.aborted) return errorResult("cancelled by the user");
        const line = fileLines[i] as string;
        if (!regex.test(line)) continue;
        if (lines.length >= maxResults) {
          truncated = true;
          break;
        }
        const shown = line.length > MAX_LINE_LENGTH ? `${line.slice(0, MAX_LINE_LENGTH)}… [line cut]` : line;
        lines.push(`${displayPath(this.cwd, file)}:${i + 1}:${shown.replace(/\r$/, "")}`);
      }
      if (truncated) break;
    }
    if (context.signal?.aborted) return errorResult("cancelled by the user");
    if (lines.length === 0) return okResult(`No matches for /${pattern}/ in ${displayPath(this.cwd, target)}`);
    const note = truncated ? `\n[stopped at ${maxResults} matching lines; narrow the search or raise max_results]` : "";
    return okResult(limitOutput(lines.join("\n") + note));
  }
}

async function listFiles(directory: string, projectRoot: string, glob: string | undefined, signal: AbortSignal | undefined): Promise<string[]> {
  // A bare "*.ts" means any depth, as with rg --glob.
  const matcher = glob === undefined ? undefined : new Bun.Glob(glob.includes("/") ? glob : `**/${glob}`);
  const unskipped = SKIPPED_DIRECTORIES.filter((name) => glob?.includes(name));
  const files: string[] = [];
  for await (const relative of walkFiles({ root: directory, projectRoot, hidden: false, unskipped, signal })) {
    if (!matcher || matcher.match(relative)) files.push(join(directory, relative));
  }
  return files.sort();
}

/** The file's text, or undefined when it is too big, binary, not a regular file or unreadable: grep skips those silently. */
async function readSearchable(file: string, signal: AbortSignal | undefined): Promise<string | undefined> {
  const read = await readRegularFile(file, file, { maxBytes: MAX_FILE_BYTES, signal });
  if (!read.ok || read.bytes.subarray(0, 8192).includes(0)) return undefined;
  return new TextDecoder().decode(read.bytes);
}
