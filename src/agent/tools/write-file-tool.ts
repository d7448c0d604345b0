import { mkdir, stat } from "node:fs/promises";
import { dirname } from "node:path";
import * as v from "valibot";
import type { Tool, ToolResult } from "../tool.ts";
import { describeFsError } from "./read-file-tool.ts";
import { errorResult, okResult, parseToolInput } from "./tool-input.ts";
import { displayPath, resolveInWorkspace } from "./workspace-path.ts";

const DESCRIPTION = `Writes a file, creating it (and its parent directories) or replacing all of its content.
- path: absolute, or relative to the working directory.
- To change part of an existing file, prefer edit_file: it cannot clobber what you did not read.`;

const WriteFileInput = v.object({
  path: v.pipe(v.string(), v.minLength(1, "give a path")),
  content: v.string(),
});

export class WriteFileTool implements Tool {
  readonly name = "write_file";
  readonly description = DESCRIPTION;
  readonly isReadOnly = false;
  readonly inputSchema = {
    type: "object",
    properties: {
      path: { type: "string", description: "The file to write" },
      content: { type: "string", description: "The whole new content of the file" },
    },
    required: ["path", "content"],
  };

  constructor(private readonly cwd: string) {}

  async execute(input: Record<string, unknown>): Promise<ToolResult> {
    const parsed = parseToolInput(this.name, WriteFileInput, input);
    if (!parsed.ok) return parsed.result;
    const { path, content } = parsed.value;
    const file = resolveInWorkspace(this.cwd, path);
    const shown = displayPath(this.cwd, file);
    try {
      const existed = await stat(file).then(
        (info) => {
          if (info.isDirectory()) throw Object.assign(new Error("is a directory"), { code: "EISDIR" });
          return true;
        },
        (error: NodeJS.ErrnoException) => {
          if (error.code === "ENOENT") return false;
          throw error;
        },
      );
      await mkdir(dirname(file), { recursive: true });
      await Bun.write(file, content);
      const lines = content === "" ? 0 : content.replace(/\n$/, "").split("\n").length;
      return okResult(`${existed ? "Replaced" : "Created"} ${shown} (${lines} line(s), ${Buffer.byteLength(content)} bytes)`);
    } catch (error) {
      return errorResult(describeFsError(shown, error));
    }
  }
}
