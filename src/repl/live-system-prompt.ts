import { loadProjectMemory, type ProjectMemory } from "../agent/project-memory.ts";
import type { PermissionModeState } from "../agent/permission-mode.ts";
import { systemPrompt, type ServerInstructions } from "../agent/system-prompt.ts";
import { PLAN_MODE_INSTRUCTIONS } from "../agent/tools/exit-plan-mode-tool.ts";
import { catCodeHome } from "../config/app-home.ts";
import type { ServerPool } from "../mcp/index.ts";

type Env = Record<string, string | undefined>;

/** The memory files of a session, read once at its start (`/memory` shows them). */
export function loadMemoryFiles(cwd: string, env: Env = process.env): ProjectMemory {
  return loadProjectMemory({ cwd, home: catCodeHome(env) });
}

/**
 * The system prompt as a function, called at every request: a server that connects (or reconnects)
 * later brings its instructions to the next request. `withMemory: false` leaves the memory files
 * out (/context tells them apart).
 */
export function liveSystemPrompt(options: { cwd: string; memory: ProjectMemory; pool: ServerPool; mode?: PermissionModeState }): (withMemory?: boolean) => string {
  return (withMemory = true) => {
    const prompt = systemPrompt({
      cwd: options.cwd,
      memory: withMemory ? options.memory.files : [],
      isGitRepo: options.memory.gitRoot !== undefined,
      serverInstructions: serverInstructions(options.pool),
    });
    // Plan mode is said where every request carries it: entered or left mid-turn, the next request knows.
    return options.mode?.mode === "plan" ? `${prompt}\n\n${PLAN_MODE_INSTRUCTIONS}` : prompt;
  };
}

/** The `instructions` of every connected server, in config order. */
export function serverInstructions(pool: ServerPool): ServerInstructions[] {
  return pool.status().flatMap((status) => {
    const text = status.state === "connected" ? pool.client(status.name)?.instructions : undefined;
    return text ? [{ server: status.name, text }] : [];
  });
}
