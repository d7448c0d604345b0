import { realpathSync } from "node:fs";
import { join } from "node:path";
import { sha256Hex } from "../../system/light-crypto.ts";

/**
 * Where a folder's sessions live: `<home>/sessions/<project-hash>/<id>.jsonl`. The hash is of the
 * folder's real path, so two names of one folder share their sessions and the path itself (which
 * may say more than it should) is not spelled out in a directory name.
 */
export function conversationLogsFolder(home: string, cwd: string): string {
  return join(home, "sessions", projectHash(cwd));
}

export function projectHash(cwd: string): string {
  let real = cwd;
  try {
    real = realpathSync(cwd);
  } catch {
    // A folder that vanished still has a name to hash.
  }
  return sha256Hex(real).slice(0, 16);
}

/** Session ids are UUIDs; anything else given as an id is refused before it becomes a path. */
export const CONVERSATION_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

export function conversationLogPath(home: string, cwd: string, id: string): string {
  return join(conversationLogsFolder(home, cwd), `${id}.jsonl`);
}

/**
 * A session's own folder beside its log (`<id>.jsonl` → `<id>/`): what the session keeps besides
 * the conversation, such as tool outputs too large for the model (tools/output-limit.ts).
 */
export function sessionFilesFolder(logPath: string): string {
  return logPath.replace(/\.jsonl$/, "");
}

/** Where a session's tool outputs too large for the model are saved whole. */
export function savedOutputsFolder(logPath: string): string {
  return join(sessionFilesFolder(logPath), "tool-outputs");
}
