import { readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { cutText } from "../../system/cut-text.ts";
import { frontMatter, readBoundedText } from "../../system/front-matter-file.ts";

/** A kind of subagent: Claude Code's `.claude/agents/<name>.md` (front matter, then the system prompt). */
export interface AgentType {
  name: string;
  description: string;
  /** Tool names as written (Claude Code's `Read, Grep` or ours); undefined: the read-only tools. */
  tools?: string[];
  /** A model id, an alias (`sonnet`, `opus`, `haiku`) or `inherit`; undefined: the parent's model. */
  model?: string;
  systemPrompt: string;
  /** The file it came from; undefined for the built-in one. */
  file?: string;
}

const MAX_FILE_BYTES = 64 * 1024;
const MAX_TYPES = 100;

export const GENERAL_PURPOSE: AgentType = {
  name: "general-purpose",
  description: "Researches a question in the project: searches and reads files (and web pages) and reports what it found. It changes nothing.",
  systemPrompt:
    "You are a subagent of cat-code, a coding agent. You get one self-contained task. Do it with the tools you have, then answer with a complete, concise report: what you found, with file paths and line numbers where they matter. Your final message is all the parent agent sees.",
};

export interface AgentTypeSources {
  cwd: string;
  catCodeHome: string;
  claudeHome: string;
  /**
   * Whether the user trusted this project's `model: "<value>"` (project-trust.ts, the trust key of a
   * project's settings' model): a cloned agent file must not pick what the user pays for unasked.
   * Absent: nothing is trusted.
   */
  projectModelTrusted?: (trustKey: string) => boolean;
}

/**
 * The agent types a project and the user define, in Claude Code's files and ours: the project's
 * `.cat-code/agents/*.md` and `.claude/agents/*.md`, then the user's `<catCodeHome>/agents` and
 * `<claudeHome>/agents` (the first of a name wins), after the built-in `general-purpose`. A file that
 * does not parse is a warning, not a failure; files are bounded in size and number. The user's
 * folders are given (config/app-home.ts: catCodeHome, claudeHome), never found from $HOME here.
 * A project agent's `model` holds only once trusted, as the project settings' `model` does; until
 * then the agent runs on the parent's model, and a warning says so.
 */
export function loadAgentTypes(options: AgentTypeSources): { types: AgentType[]; warnings: string[] } {
  const userFolders = [join(options.catCodeHome, "agents"), join(options.claudeHome, "agents")];
  const projectFolders = [join(options.cwd, ".cat-code", "agents"), join(options.cwd, ".claude", "agents")].filter((folder) => !userFolders.includes(folder));
  const types: AgentType[] = [GENERAL_PURPOSE];
  const warnings: string[] = [];
  for (const folder of [...projectFolders, ...userFolders]) {
    for (const file of markdownFiles(folder)) {
      if (types.length > MAX_TYPES) return { types, warnings: [...warnings, `more than ${MAX_TYPES} agent types; the rest are ignored`] };
      const parsed = parseAgentFile(file);
      if ("error" in parsed) warnings.push(`${file}: ${parsed.error}; it is ignored`);
      else if (!types.some((type) => type.name === parsed.name)) types.push(projectFolders.includes(folder) ? withTrustedModel(parsed, options, warnings) : parsed);
    }
  }
  return { types, warnings };
}

/** A project agent's model, kept only where trusted (`inherit` needs no trust: it is the parent's). */
function withTrustedModel(type: AgentType, options: AgentTypeSources, warnings: string[]): AgentType {
  if (type.model === undefined || type.model === "inherit") return type;
  const trustKey = `model: ${JSON.stringify(type.model)}`;
  if (options.projectModelTrusted?.(trustKey)) return type;
  warnings.push(`${type.file}: ${cutText(trustKey, 80)} is ignored, not trusted in this folder (a project's model chooses what you pay for); agent ${type.name} runs on the session's model (copy it to ${join(options.claudeHome, "agents")} to use its own)`);
  return { ...type, model: undefined };
}

function markdownFiles(folder: string): string[] {
  try {
    return readdirSync(folder)
      .filter((name) => name.endsWith(".md"))
      .sort()
      .map((name) => join(folder, name))
      .filter((path) => statSync(path).isFile());
  } catch {
    return [];
  }
}

/** `---\nname: x\ndescription: …\ntools: Read, Grep\nmodel: sonnet\n---\n<system prompt>`. */
export function parseAgentFile(file: string, text?: string): AgentType | { error: string } {
  let content = text;
  if (content === undefined) {
    const read = readBoundedText(file, MAX_FILE_BYTES);
    if ("error" in read) return read;
    if (read.cut) return { error: `larger than ${MAX_FILE_BYTES / 1024} KB` };
    content = read.text;
  }
  const { fields, body, found } = frontMatter(content);
  if (!found) return { error: "no front matter: start it with ---, then name: and description:, then ---" };
  const field = (key: string) => fields.get(key)?.join(" ") ?? "";
  const name = field("name");
  if (!/^[a-z0-9][a-z0-9_-]{0,63}$/i.test(name)) return { error: "name: must be a name of letters, digits, - and _ (at most 64)" };
  const description = field("description");
  if (description === "") return { error: "description: is missing (it tells the model when to use this agent)" };
  // `tools: Read, Grep` or a YAML list of them.
  const tools = fields.get("tools")?.flatMap((value) => value.split(",")).map((tool) => tool.trim()).filter(Boolean);
  return {
    name,
    description: cutText(description, 1_000),
    tools: tools?.length ? tools : undefined,
    model: field("model") || undefined,
    systemPrompt: body.trim() || GENERAL_PURPOSE.systemPrompt,
    file,
  };
}
