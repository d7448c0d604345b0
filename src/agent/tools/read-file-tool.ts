import * as v from "valibot";
import type { Tool, ToolContext, ToolResult } from "../tool.ts";
import { mediaResult } from "./file-media.ts";
import { limitOutput } from "./output-limit.ts";
import { outsideProject } from "./project-scope.ts";
import { readRegularFile } from "./regular-file.ts";
import { errorResult, okResult, parseToolInput } from "./tool-input.ts";
import { displayPath, resolveInWorkspace } from "./workspace-path.ts";

const DEFAULT_LIMIT = 2_000;
const MAX_LINE_LENGTH = 2_000;
/** Larger files must be read in parts with offset and limit; reading them whole wastes the context. */
export const MAX_READ_BYTES = 10 * 1024 * 1024;

const DESCRIPTION = `Reads a text file and returns its lines numbered like cat -n ("     1\\tfirst line"). An image (PNG, JPEG, GIF, WebP) comes back as the image itself, a PDF as a document (at most 100 pages).
- path: absolute, or relative to the working directory. Files outside the working directory need the user's permission.
- offset: the first line to return (1-based); limit: how many lines (default ${DEFAULT_LIMIT}).
- Lines longer than ${MAX_LINE_LENGTH} characters are cut. Use offset and limit to page through long files.
- Only regular files: devices, FIFOs and sockets are refused.`;

const ReadFileInput = v.object({
  path: v.pipe(v.string(), v.minLength(1, "give a path")),
  offset: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1))),
  limit: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1))),
});

export class ReadFileTool implements Tool {
  readonly name = "read_file";
  readonly description = DESCRIPTION;
  readonly isReadOnly = true;
  readonly inputSchema = {
    type: "object",
    properties: {
      path: { type: "string", description: "The file to read" },
      offset: { type: "integer", minimum: 1, description: "First line to return, 1-based" },
      limit: { type: "integer", minimum: 1, description: `Number of lines to return (default ${DEFAULT_LIMIT})` },
    },
    required: ["path"],
  };

  /** `alsoReadable`: a folder read without asking besides the project (the saved tool outputs). */
  constructor(
    private readonly cwd: string,
    private readonly alsoReadable?: () => string | undefined,
  ) {}

  needsPermission(input: Record<string, unknown>): Promise<boolean> {
    return outsideProject(this.cwd, input.path, this.alsoReadable);
  }

  async execute(input: Record<string, unknown>, context: ToolContext = {}): Promise<ToolResult> {
    const parsed = parseToolInput(this.name, ReadFileInput, input);
    if (!parsed.ok) return parsed.result;
    const { path, offset = 1, limit = DEFAULT_LIMIT } = parsed.value;
    const file = resolveInWorkspace(this.cwd, path);
    const shown = displayPath(this.cwd, file);

    const read = await readRegularFile(file, shown, { maxBytes: MAX_READ_BYTES, signal: context.signal });
    if (!read.ok) return errorResult(read.reason);
    // Images and PDFs go to the model as what they are, judged by their bytes, not their name.
    const media = mediaResult(read.bytes, shown);
    if (media) return media;
    if (read.bytes.subarray(0, 8192).includes(0)) return errorResult(`${shown} looks binary (it contains NUL bytes)`);
    const text = new TextDecoder().decode(read.bytes);
    if (text === "") return okResult(`(${shown} is empty)`);

    const lines = text.replace(/\n$/, "").split("\n");
    if (offset > lines.length) return errorResult(`${shown} has ${lines.length} line(s); offset ${offset} is past the end`);
    const selected = lines.slice(offset - 1, offset - 1 + limit);
    const numbered = selected.map((line, i) => {
      const cut = line.length > MAX_LINE_LENGTH ? `${line.slice(0, MAX_LINE_LENGTH)}… [line cut]` : line;
      return `${String(offset + i).padStart(6)}\t${cut.replace(/\r$/, "")}`;
    });
    const last = offset - 1 + selected.length;
    const more = last < lines.length ? `\n[lines ${offset}-${last} of ${lines.length}; use offset ${last + 1} to read on]` : "";
    return okResult(limitOutput(numbered.join("\n") + more));
  }
}
