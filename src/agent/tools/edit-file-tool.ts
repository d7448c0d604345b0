import * as v from "valibot";
import type { Tool, ToolResult } from "../tool.ts";
import { describeFsError } from "./read-file-tool.ts";
import { errorResult, okResult, parseToolInput } from "./tool-input.ts";
import { displayPath, resolveInWorkspace } from "./workspace-path.ts";

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

  constructor(private readonly cwd: string) {}

  async execute(input: Record<string, unknown>): Promise<ToolResult> {
    const parsed = parseToolInput(this.name, EditFileInput, input);
    if (!parsed.ok) return parsed.result;
    const { path, old_string: oldString, new_string: newString, replace_all: replaceAll = false } = parsed.value;
    if (oldString === newString) return errorResult("old_string and new_string are the same; nothing to change");
    const file = resolveInWorkspace(this.cwd, path);
    const shown = displayPath(this.cwd, file);

    let text: string;
    try {
      text = await Bun.file(file).text();
    } catch (error) {
      return errorResult(describeFsError(shown, error));
    }
    const count = text.split(oldString).length - 1;
    if (count === 0) return errorResult(`old_string was not found in ${shown}; read the file and copy the text exactly`);
    if (count > 1 && !replaceAll) {
      return errorResult(`old_string occurs ${count} times in ${shown}; add surrounding lines to make it unique, or set replace_all`);
    }
    // split/join rather than String.replace: a `$&` in new_string must stay literal.
    const updated = replaceAll ? text.split(oldString).join(newString) : spliceOnce(text, oldString, newString);
    try {
      await Bun.write(file, updated);
    } catch (error) {
      return errorResult(describeFsError(shown, error));
    }
    const line = text.slice(0, text.indexOf(oldString)).split("\n").length;
    return okResult(`Edited ${shown}: ${count} replacement(s)${count === 1 ? ` at line ${line}` : ""}`);
  }
}

function spliceOnce(text: string, oldString: string, newString: string): string {
  const at = text.indexOf(oldString);
  return text.slice(0, at) + newString + text.slice(at + oldString.length);
}
