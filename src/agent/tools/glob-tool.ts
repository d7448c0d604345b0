import { stat } from "node:fs/promises";
import { join } from "node:path";
import * as v from "valibot";
import type { Tool, ToolResult } from "../tool.ts";
import { describeFsError } from "./read-file-tool.ts";
import { errorResult, okResult, parseToolInput } from "./tool-input.ts";
import { displayPath, inSkippedDirectory, resolveInWorkspace } from "./workspace-path.ts";

const MAX_RESULTS = 1_000;

const DESCRIPTION = `Finds files by glob pattern, such as "**/*.ts" or "src/**/test-*.js".
- path: the directory to search (default: the working directory); the pattern is relative to it.
- Returns matching file paths, sorted, one a line. Hidden files, node_modules and .git are skipped unless the pattern names them.`;

const GlobInput = v.object({
  pattern: v.pipe(v.string(), v.minLength(1, "give a pattern")),
  path: v.optional(v.string()),
});

export class GlobTool implements Tool {
  readonly name = "glob";
  readonly description = DESCRIPTION;
  readonly isReadOnly = true;
  readonly inputSchema = {
    type: "object",
    properties: {
      pattern: { type: "string", description: "The glob pattern" },
      path: { type: "string", description: "The directory to search in" },
    },
    required: ["pattern"],
  };

  constructor(private readonly cwd: string) {}

  async execute(input: Record<string, unknown>): Promise<ToolResult> {
    const parsed = parseToolInput(this.name, GlobInput, input);
    if (!parsed.ok) return parsed.result;
    const { pattern, path = "." } = parsed.value;
    const base = resolveInWorkspace(this.cwd, path);
    try {
      if (!(await stat(base)).isDirectory()) return errorResult(`${displayPath(this.cwd, base)} is not a directory`);
    } catch (error) {
      return errorResult(describeFsError(displayPath(this.cwd, base), error));
    }

    const matches: string[] = [];
    let more = 0;
    const dot = /(^|\/)\./.test(pattern);
    for await (const relative of new Bun.Glob(pattern).scan({ cwd: base, onlyFiles: true, dot })) {
      if (inSkippedDirectory(relative, pattern)) continue;
      if (matches.length < MAX_RESULTS) matches.push(displayPath(this.cwd, join(base, relative)));
      else more++;
    }
    if (matches.length === 0) return okResult(`No files match ${pattern} in ${displayPath(this.cwd, base)}`);
    matches.sort();
    return okResult(matches.join("\n") + (more ? `\n[${more} more not shown; narrow the pattern]` : ""));
  }
}
