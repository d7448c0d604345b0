import type { TodoList } from "./todo-list.ts";
import type { Tool } from "./tool.ts";
import { BashTool } from "./tools/bash-tool.ts";
import { EditFileTool } from "./tools/edit-file-tool.ts";
import { GlobTool } from "./tools/glob-tool.ts";
import { GrepTool } from "./tools/grep-tool.ts";
import { ReadFileTool } from "./tools/read-file-tool.ts";
import { TodoWriteTool } from "./tools/todo-write-tool.ts";
import { WebFetchTool } from "./tools/web-fetch-tool.ts";
import { TaskTool } from "./tools/task-tool.ts";
import type { SubagentLauncher } from "./subagents/subagent-runner.ts";
import { WriteFileTool } from "./tools/write-file-tool.ts";
import { WaitForServersTool, type ServerWaiter } from "./tools/wait-for-servers-tool.ts";
import type { FileChangeJournal } from "./tools/file-change-journal.ts";

export interface BuiltinToolOptions {
  /** The directory relative paths and commands start from. */
  cwd: string;
  /** A folder read_file and grep read without asking besides the project: the session's saved tool outputs. */
  savedOutputs?: () => string | undefined;
  /** Servers that may still be connecting (the front end's MCP servers): with it, wait_for_mcp_servers. */
  servers?: ServerWaiter;
  /** The session's todo list, which todo_write writes and the REPL shows; a fresh one when absent. */
  todos?: TodoList;
  /** Runs subagents for the task tool; without it there is no task tool. */
  subagents?: SubagentLauncher;
  /** Hears every file write_file and edit_file are about to change (checkpoints); none: changes are not kept. */
  journal?: FileChangeJournal;
}

/** The tools cat-code brings itself; MCP tools join them in the same registry. */
export function createBuiltinTools(options: BuiltinToolOptions): Tool[] {
  const { cwd, savedOutputs, servers, journal } = options;
  return [
    new BashTool({ cwd }),
    new ReadFileTool(cwd, savedOutputs),
    new WriteFileTool(cwd, journal),
    new EditFileTool(cwd, journal),
    new GlobTool(cwd),
    new GrepTool(cwd, savedOutputs),
    new TodoWriteTool(options.todos),
    new WebFetchTool(),
    ...(options.subagents ? [new TaskTool(options.subagents)] : []),
    ...(servers ? [new WaitForServersTool(servers)] : []),
  ];
}
