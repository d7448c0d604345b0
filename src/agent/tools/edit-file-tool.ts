import * as v from "valibot";
import type { Tool, ToolCallPreview, ToolContext, ToolResult } from "../tool.ts";
import { fileChangePreview } from "./file-change-preview.ts";
import { MAX_READ_BYTES } from "./read-file-tool.ts";
import { describeFsError, readRegularFile } from "./regular-file.ts";
import { errorResult, okResult, parseToolInput } from "./tool-input.ts";
import { displayPath, resolveInWorkspace } from "./workspace-path.ts";
import type { FileChangeJournal } from "./file-change-journal.ts";

const DESCRIPTION = `Replaces an exact string in a file with another.
- old_string must match the file exactly, whitespace and indentation included (read the file first).
- It must occur exactly once: include enough surrounding lines to make it unique, or set replace_all to change every occurrence.
- The edit fails, and the file is left as it was, when old_string is not found or is not unique.`;

const EditFileInput = v.object({
  path: v.pipe(v.string(), v.minLength(1, "give a path")),
  old_string: v.pipe(v.string(), v.minLength(1, "old_string is empty; use write_file to create a file")),
  new_string: v.string(),
  replace_all: v.optional(v.boolean()),
});
type EditFileInput = v.InferOutput<typeof EditFileInput>;

export class EditFileTool implements Tool {
  readonly name = "edit_file";
  readonly description = DESCRIPTION;
  readonly isReadOnly = false;
  readonly inputSchema = {
    type: "object",
    properties: {
      path: { type: "string", description: "The file to edit" },
      old_string: { type: "string", description: "The exact text to replace" },
      new_string: { type: "string", description: "The text to put in its place" },
      replace_all: { type: "boolean", description: "Replace every occurrence instead of requiring exactly one" },
    },
    required: ["path", "old_string", "new_string"],
  };

  constructor(
    private readonly cwd: string,
    private readonly journal?: FileChangeJournal,
  ) {}

  async preview(input: Record<string, unknown>, context: ToolContext = {}): Promise<ToolCallPreview> {
    const parsed = v.safeParse(EditFileInput, input);
    if (!parsed.success) return { kind: "arguments", input };
    const edit = parsed.output;
    const file = resolveInWorkspace(this.cwd, edit.path);
    const shown = displayPath(this.cwd, file);
    return fileChangePreview(
      file,
      shown,
      (current) => {
        const applied = current === undefined ? undefined : applyEdit(current, edit, shown);
        if (applied && "text" in applied) return { text: applied.text };
        // The call will fail; the two strings still say what was asked.
        const why = applied ? `${applied.error}; ` : "";
        return { from: edit.old_string, text: edit.new_string, note: `${why}the edit will fail (old_string → new_string shown)` };
      },
      context.signal,
    );
  }

  async execute(input: Record<string, unknown>, context: ToolContext = {}): Promise<ToolResult> {
    const parsed = parseToolInput(this.name, EditFileInput, input);
    if (!parsed.ok) return parsed.result;
    const edit = parsed.value;
    const file = resolveInWorkspace(this.cwd, edit.path);
    const shown = displayPath(this.cwd, file);

    const read = await readRegularFile(file, shown, { maxBytes: MAX_READ_BYTES, signal: context.signal });
    if (!read.ok) return errorResult(read.reason);
    const text = new TextDecoder().decode(read.bytes);
    const applied = applyEdit(text, edit, shown);
    if ("error" in applied) return errorResult(applied.error);
    if (context.signal?.aborted) return errorResult("cancelled by the user; the file was not changed");
    try {
      await this.journal?.beforeChange(file);
      await Bun.write(file, applied.text);
      await this.journal?.changed(file, applied.text);
    } catch (error) {
      return errorResult(describeFsError(shown, error));
    }
    const count = applied.count;
    return okResult(`Edited ${shown}: ${count} replacement(s)${count === 1 ? ` at line ${applied.line}` : ""}`);
  }
}

/** The edit applied to `text`, or why it cannot be: shared by the question and the run. */
function applyEdit(text: string, edit: EditFileInput, shown: string): { text: string; count: number; line: number } | { error: string } {
  const { old_string: oldString, new_string: newString, replace_all: replaceAll = false } = edit;
  if (oldString === newString) return { error: "old_string and new_string are the same; nothing to change" };
  const count = text.split(oldString).length - 1;
  if (count === 0) return { error: `old_string was not found in ${shown}; read the file and copy the text exactly` };
  if (count > 1 && !replaceAll) {
    return { error: `old_string occurs ${count} times in ${shown}; add surrounding lines to make it unique, or set replace_all` };
  }
  const at = text.indexOf(oldString);
  // split/join rather than String.replace: a `$&` in new_string must stay literal.
  const updated = replaceAll ? text.split(oldString).join(newString) : text.slice(0, at) + newString + text.slice(at + oldString.length);
  return { text: updated, count, line: text.slice(0, at).split("\n").length };
}
