import { stat } from "node:fs/promises";
import { join } from "node:path";
import * as v from "valibot";
import type { Tool, ToolContext, ToolResult } from "../tool.ts";
import { outsideProject } from "./project-scope.ts";
import { SKIPPED_DIRECTORIES, walkFiles } from "./project-walk.ts";
import { describeFsError } from "./regular-file.ts";
import { errorResult, okResult, parseToolInput } from "./tool-input.ts";
import { displayPath, resolveInWorkspace } from "./workspace-path.ts";

const MAX_RESULTS = 1_000;

const DESCRIPTION = `Finds files by glob pattern, such as "**/*.ts" or "src/**/test-*.js".
- path: the directory to search (default: the working directory); the pattern is relative to it. Directories outside the working directory need the user's permission.
- Returns matching file paths, sorted, one a line. Files ignored by .gitignore are left out; hidden files, node_modules and .git too, unless the pattern names them. Symlinks are not followed.`;

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

  needsPermission(input: Record<string, unknown>): Promise<boolean> {
    return outsideProject(this.cwd, input.path ?? ".");
  }

  async execute(input: Record<string, unknown>, context: ToolContext = {}): Promise<ToolResult> {
    const parsed = parseToolInput(this.name, GlobInput, input);
    if (!parsed.ok) return parsed.result;
    const { pattern, path = "." } = parsed.value;
    const base = resolveInWorkspace(this.cwd, path);
    try {
      if (!(await stat(base)).isDirectory()) return errorResult(`${displayPath(this.cwd, base)} is not a directory`);
    } catch (error) {
      return errorResult(describeFsError(displayPath(this.cwd, base), error));
    }

    const glob = new Bun.Glob(pattern);
    const matches: string[] = [];
    let more = 0;
    const walk = walkFiles({
      root: base,
      projectRoot: this.cwd,
      hidden: /(^|\/)\./.test(pattern),
      unskipped: SKIPPED_DIRECTORIES.filter((name) => pattern.includes(name)),
      signal: context.signal,
    });
    for await (const relative of walk) {
      if (!glob.match(relative)) continue;
      if (matches.length < MAX_RESULTS) matches.push(displayPath(this.cwd, join(base, relative)));
      else more++;
    }
    if (context.signal?.aborted) return errorResult("cancelled by the user");
    if (matches.length === 0) return okResult(`No files match ${pattern} in ${displayPath(this.cwd, base)}`);
    matches.sort();
    return okResult(matches.join("\n") + (more ? `\n[${more} more not shown; narrow the pattern]` : ""));
  }
}
