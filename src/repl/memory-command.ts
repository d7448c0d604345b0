import { MAX_MEMORY_FILE_BYTES, MAX_MEMORY_TOTAL_BYTES, MEMORY_FILE_NAMES, type ProjectMemory } from "../agent/project-memory.ts";
import { formatBytes } from "../system/format-bytes.ts";
import { alignColumns, sanitizeForTerminal } from "../terminal/terminal-text.ts";

/** `/memory`: the memory files in the system prompt, in its order, with sizes and any cut; then the warnings. */
export function memoryText(memory: ProjectMemory): string {
  const lines: string[] = [];
  if (memory.files.length === 0) {
    lines.push(`No memory files loaded. cat-code reads ${MEMORY_FILE_NAMES.join(" and ")} from the working directory up to the git root, and AGENTS.md in its home folder.`);
  } else {
    lines.push("Memory files (in the system prompt, most general first):");
    const rows = memory.files.map((file) => {
      const kept = Buffer.byteLength(file.text);
      const size = file.cut ? `${formatBytes(kept)} of ${formatBytes(file.bytes)} (cut: ${formatBytes(MAX_MEMORY_FILE_BYTES)} a file, ${formatBytes(MAX_MEMORY_TOTAL_BYTES)} in all)` : formatBytes(file.bytes);
      return [sanitizeForTerminal(file.path), size];
    });
    lines.push(...alignColumns(rows).map((line) => `  ${line}`));
  }
  lines.push(...memoryWarningLines(memory).map((line) => `  ${line}`));
  return lines.join("\n");
}

/** The memory files' warnings, for the start of a session (sanitized: paths come from the disk). */
export function memoryWarningLines(memory: ProjectMemory): string[] {
  return memory.warnings.map((warning) => `warning: ${sanitizeForTerminal(warning)}`);
}
