import type { Node, ParseError } from "jsonc-parser";
import { jsonc } from "../config/jsonc.ts";
import * as v from "valibot";
import { parseRule, wrapperOnlyProblem } from "../system/permission-rule-syntax.ts";
import { parsePermissionMode } from "../system/permission-mode-name.ts";
import { readConfigText } from "../config/config-file-text.ts";
import { ConfigError } from "../config/config-error.ts";
import { describeParseError, lineAndColumn } from "../config/json-parse-error.ts";
import { isPlainObject } from "../system/plain-object.ts";
import { readProjectTrust } from "./project-trust.ts";
import { projectSettingsPath, userSettingsPath } from "./settings-paths.ts";
import { cutText } from "../system/cut-text.ts";

/** Keys and rules come from a file anyone may have written: a warning shows a bounded piece. */
const MAX_SHOWN = 80;
import { emptySettings, PERMISSION_LISTS, SETTING_KEYS, type LoadedSettings, type PermissionList, type RuleSource, type Settings } from "./settings.ts";

type Env = Record<string, string | undefined>;

/** Nesting deeper than this is no settings file: refused before it can exhaust the stack. */
const MAX_SETTINGS_DEPTH = 64;

export { projectSettingsPath, userSettingsPath } from "./settings-paths.ts";

/**
 * Reads the user's and the project's settings.json and merges them: the project's values win for
 * single values (model, thinking, …), rule lists add up. Fail-open, as mcp.json: no file is no
 * settings; a file that is not JSON is one warning and none of its settings; a bad value is a
 * warning naming file, key and what is allowed, and only that key is left out. A project file is
 * hostile (it comes with a clone): its `env` is ignored, its deny rules always hold, its allow rules,
 * `model` and `thinking` only once trusted for this folder (see project-trust.ts).
 */
export function loadSettings(options: { cwd: string; env?: Env }): LoadedSettings {
  const env = options.env ?? process.env;
  const userFile = userSettingsPath(env);
  const projectFile = projectSettingsPath(options.cwd);
  const warnings: string[] = [];
  const settings = emptySettings();
  const rules: RuleSource[] = [];
  const untrustedAllow: string[] = [];
  const user = readSettingsFile(userFile, warnings);
  const project = readSettingsFile(projectFile, warnings);
  const costly = projectCostlySettings(user, project, options.cwd, env, warnings);
  for (const [scope, file, values] of [["user", userFile, user], ["project", projectFile, costly.kept]] as const) {
    const { permissions, env: variables, hooks, ...single } = values;
    Object.assign(settings, single);
    // Hooks add up, event by event, as Claude Code merges its settings files.
    for (const [event, groups] of Object.entries(hooks ?? {}) as [keyof NonNullable<Settings["hooks"]>, NonNullable<Settings["hooks"]>[keyof NonNullable<Settings["hooks"]>]][]) {
      settings.hooks ??= {};
      settings.hooks[event] = [...(settings.hooks[event] ?? []), ...(groups ?? [])];
    }
    if (variables && scope === "user") settings.env = variables;
    for (const list of ["deny", "ask", "allow"] as const) for (const rule of permissions?.[list] ?? []) rules.push({ rule, list, scope, file, state: "active" });
    const mode = permissions?.defaultMode;
    // A cloned project must not start the user's sessions editing files unasked; plan and default only ask more.
    if (mode === "acceptEdits" && scope === "project") warnings.push(`${file}: "permissions.defaultMode": "acceptEdits" is ignored in a project's settings (it would let the model edit files unasked); put it in ${userFile}`);
    else if (mode) settings.permissions.defaultMode = mode;
  }
  if (project.env) warnings.push(`${projectFile}: "env" is ignored in a project's settings (it could point cat-code elsewhere); put it in ${userFile}`);
  if (project.permissions?.allow?.length) {
    const { trust, warning } = readProjectTrust(options.cwd, env);
    if (warning) warnings.push(warning);
    for (const source of rules) {
      if (source.scope !== "project" || source.list !== "allow" || trust.trusted.has(source.rule)) continue;
      source.state = trust.refused.has(source.rule) ? "refused" : "untrusted";
      if (source.state === "untrusted") untrustedAllow.push(source.rule);
    }
  }
  for (const source of rules) if (source.state === "active") settings.permissions[source.list].push(source.rule);
  return { settings, warnings, userFile, projectFile, untrustedAllow: [...new Set(untrustedAllow)], untrustedSettings: costly.untrusted, rules };
}

/**
 * The project's settings that choose what the user pays for, or run commands (its hooks): trusted
 * per folder and value, as its allow rules.
 */
const COSTLY_KEYS = ["model", "thinking", "hooks"] as const;

/** How a project's costly value is trusted and shown: the key and the value as JSON (`model: "claude-opus-4-1"`). */
function settingTrustKey(key: (typeof COSTLY_KEYS)[number], value: unknown): string {
  return `${key}: ${JSON.stringify(value)}`;
}

/**
 * The project's settings with its `model` and `thinking` kept only where trusted for this folder
 * (or the same as the user's own: nothing to decide); the others, as trust keys, wait for the
 * user's word. A refused value is left out and not asked about again.
 */
function projectCostlySettings(user: FileSettings, project: FileSettings, cwd: string, env: Env, warnings: string[]): { kept: FileSettings; untrusted: string[] } {
  const asked = COSTLY_KEYS.filter((key) => project[key] !== undefined && JSON.stringify(project[key]) !== JSON.stringify(user[key]));
  if (asked.length === 0) return { kept: project, untrusted: [] };
  const { trust, warning } = readProjectTrust(cwd, env, "projectSettings");
  if (warning) warnings.push(warning);
  const kept: FileSettings = { ...project };
  const untrusted: string[] = [];
  for (const key of asked) {
    const trustKey = settingTrustKey(key, project[key]);
    if (trust.trusted.has(trustKey)) continue;
    delete kept[key];
    if (!trust.refused.has(trustKey)) untrusted.push(trustKey);
  }
  return { kept, untrusted };
}

type FileSettings = Partial<Omit<Settings, "permissions">> & { permissions?: Partial<Settings["permissions"]> };

/** One file's valid settings; every problem is a warning in `warnings`. */
export function readSettingsFile(path: string, warnings: string[]): FileSettings {
  let document: unknown;
  try {
    const read = readConfigText(path);
    if (read === undefined || read.text.trim() === "") return {};
    document = parseJsonc(read.text);
  } catch (error) {
    if (error instanceof ConfigError) warnings.push(`${error.message}; its settings are ignored`);
    else warnings.push(`${path}: ${error instanceof RangeError ? `nested more than ${MAX_SETTINGS_DEPTH} levels deep` : (error as Error).message}; its settings are ignored`);
    return {};
  }
  if (!isPlainObject(document)) {
    warnings.push(`${path}: the top level must be an object like {"model": "…"}; its settings are ignored`);
    return {};
  }
  const result: FileSettings = {};
  for (const [key, value] of Object.entries(document)) {
    if (key === "permissions") {
      result.permissions = readPermissions(value, path, warnings);
      continue;
    }
    const schema = Object.hasOwn(SETTING_KEYS, key) ? SETTING_KEYS[key as keyof typeof SETTING_KEYS] : undefined;
    if (!schema) {
      warnings.push(`${path}: unknown setting "${cutText(key, MAX_SHOWN)}" is ignored (known: ${[...Object.keys(SETTING_KEYS), "permissions"].join(", ")})`);
      continue;
    }
    const parsed = v.safeParse(schema, value);
    if (parsed.success) Object.assign(result, { [key]: parsed.output });
    else warnings.push(`${path}: ${parsed.issues[0].message}; it is ignored`);
  }
  return result;
}

function readPermissions(value: unknown, path: string, warnings: string[]): FileSettings["permissions"] {
  if (!isPlainObject(value)) {
    warnings.push(`${path}: "permissions" must be an object like {"allow": ["Bash(npm test:*)"], "deny": []}; it is ignored`);
    return undefined;
  }
  const permissions: FileSettings["permissions"] = {};
  for (const [key, list] of Object.entries(value)) {
    if (key === "defaultMode") {
      const mode = typeof list === "string" ? parsePermissionMode(list) : { ok: false as const, error: "it must be a mode's name" };
      if (mode.ok) permissions.defaultMode = mode.mode;
      else warnings.push(`${path}: "permissions.defaultMode": ${cutText(mode.error, 200)}; it is ignored`);
      continue;
    }
    if (!(PERMISSION_LISTS as readonly string[]).includes(key)) {
      warnings.push(`${path}: "permissions.${cutText(key, MAX_SHOWN)}" is not supported and is ignored (cat-code reads "allow", "deny", "ask" and "defaultMode")`);
      continue;
    }
    if (!Array.isArray(list)) {
      warnings.push(`${path}: "permissions.${key}" must be a list of rules such as ["Bash(npm test:*)"]; it is ignored`);
      continue;
    }
    const rules: string[] = [];
    for (const item of list) {
      if (typeof item !== "string") {
        warnings.push(`${path}: "permissions.${key}" holds a ${item === null ? "null" : typeof item}, not a rule; it is ignored`);
        continue;
      }
      const parsed = parseRule(item);
      const useless = parsed.ok && key === "allow" ? wrapperOnlyProblem(parsed.rule) : undefined;
      if (useless) warnings.push(`${path}: "permissions.allow": ${cutText(useless, 400)}`);
      if (parsed.ok) rules.push(item);
      else warnings.push(`${path}: "permissions.${key}": ${cutText(parsed.error, 300)}; that rule is ignored`);
    }
    permissions[key as PermissionList] = rules;
  }
  return permissions;
}

/**
 * JSON with comments and trailing commas. Values are built with Object.fromEntries, so a key named
 * `__proto__` is a key like any other and cannot change an object's prototype.
 */
function parseJsonc(text: string): unknown {
  const errors: ParseError[] = [];
  const root = jsonc().parseTree(text, errors, { disallowComments: false, allowTrailingComma: true });
  const first = errors[0];
  if (first) {
    const { line, column } = lineAndColumn(text, first.offset);
    throw new Error(`not valid JSON: ${describeParseError(jsonc().printParseErrorCode(first.error))} at line ${line}, column ${column}`);
  }
  return root ? toValue(root, 0) : undefined;
}

function toValue(node: Node, depth: number): unknown {
  if (depth > MAX_SETTINGS_DEPTH) throw new Error(`nested more than ${MAX_SETTINGS_DEPTH} levels deep`);
  const children = node.children ?? [];
  if (node.type === "object") return Object.fromEntries(children.map((p) => [String(p.children?.[0]?.value), p.children?.[1] ? toValue(p.children[1], depth + 1) : null]));
  if (node.type === "array") return children.map((child) => toValue(child, depth + 1));
  return node.value;
}

