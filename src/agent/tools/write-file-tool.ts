import { mkdir, stat } from "node:fs/promises";
import { dirname } from "node:path";
import * as v from "valibot";
import type { Tool, ToolCallPreview, ToolContext, ToolResult } from "../tool.ts";
import { fileChangePreview } from "./file-change-preview.ts";
import { describeFsError } from "./regular-file.ts";
import { errorResult, okResult, parseToolInput } from "./tool-input.ts";
import { displayPath, resolveInWorkspace } from "./workspace-path.ts";
import type { FileChangeJournal } from "./file-change-journal.ts";

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

  constructor(
    private readonly cwd: string,
    private readonly journal?: FileChangeJournal,
  ) {}

  async preview(input: Record<string, unknown>, context: ToolContext = {}): Promise<ToolCallPreview> {
    const parsed = v.safeParse(WriteFileInput, input);
    if (!parsed.success) return { kind: "arguments", input };
    const file = resolveInWorkspace(this.cwd, parsed.output.path);
    return fileChangePreview(file, displayPath(this.cwd, file), () => ({ text: parsed.output.content }), context.signal);
  }

  async execute(input: Record<string, unknown>, context: ToolContext = {}): Promise<ToolResult> {
    const parsed = parseToolInput(this.name, WriteFileInput, input);
    if (!parsed.ok) return parsed.result;
    const { path, content } = parsed.value;
    const file = resolveInWorkspace(this.cwd, path);
    const shown = displayPath(this.cwd, file);
    try {
      const existed = await stat(file).then(
        (info) => {
          if (info.isDirectory()) throw Object.assign(new Error("is a directory"), { code: "EISDIR" });
          // Writing into a FIFO blocks until someone reads it; into a device, it means nothing good.
          if (!info.isFile()) throw new Error("not a regular file; only regular files can be written");
          return true;
        },
        (error: NodeJS.ErrnoException) => {
          if (error.code === "ENOENT") return false;
          throw error;
        },
      );
      if (context.signal?.aborted) return errorResult("cancelled by the user; nothing was written");
      await this.journal?.beforeChange(file);
      await mkdir(dirname(file), { recursive: true });
      await Bun.write(file, content);
      await this.journal?.changed(file, content);
      const lines = content === "" ? 0 : content.replace(/\n$/, "").split("\n").length;
      return okResult(`${existed ? "Replaced" : "Created"} ${shown} (${lines} line(s), ${Buffer.byteLength(content)} bytes)`);
    } catch (error) {
      return errorResult(describeFsError(shown, error));
    }
  }
}
