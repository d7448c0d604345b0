import { afterEach, beforeEach, expect, test } from "bun:test";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { permissionsCommand } from "../../../src/repl/permissions-command.ts";
import { loadSettings } from "../../../src/settings/load-settings.ts";
import { PermissionSettings } from "../../../src/settings/permission-settings.ts";

let home: string;
let cwd: string;
let settings: PermissionSettings;
let printed: string[];
beforeEach(() => {
  home = mkdtempSync(join(tmpdir(), "perm-add-home-"));
  cwd = mkdtempSync(join(tmpdir(), "perm-add-project-"));
  const env = { CAT_CODE_HOME: home };
  settings = new PermissionSettings(loadSettings({ cwd, env }), { cwd, env });
  printed = [];
});
afterEach(() => {
  rmSync(home, { recursive: true, force: true });
  rmSync(cwd, { recursive: true, force: true });
});

const run = (args: string) => permissionsCommand(args, settings, (line) => printed.push(line));
const projectFile = () => join(cwd, ".cat-code", "settings.json");
const fileRules = (file: string) => JSON.parse(readFileSync(file, "utf8")).permissions;

test("/permissions add writes the rule to the project's settings (user: the user's), and it holds at once", async () => {
  await run("add deny Bash(git push:*)");
  await run("add allow Bash(npm test:*)");
  await run("add user ask Bash(git log:*)");
  expect(printed).toEqual([
    `Added Bash(git push:*) to "permissions.deny" in ${projectFile()}`,
    `Added Bash(npm test:*) to "permissions.allow" in ${projectFile()}`,
    `Added Bash(git log:*) to "permissions.ask" in ${join(home, "settings.json")}`,
  ]);
  expect(fileRules(projectFile())).toEqual({ deny: ["Bash(git push:*)"], allow: ["Bash(npm test:*)"] });
  expect(fileRules(join(home, "settings.json"))).toEqual({ ask: ["Bash(git log:*)"] });
  // The project's allow rule the user added here is trusted: it is in force, as are the others.
  expect(settings.rules()).toEqual({ allow: ["Bash(npm test:*)"], deny: ["Bash(git push:*)"], ask: ["Bash(git log:*)"] });
  printed = [];
  await run("");
  expect(printed.join("\n")).toMatch(/deny {3}Bash\(git push:\*\)[\s\S]*ask {4}Bash\(git log:\*\)[\s\S]*allow {2}Bash\(npm test:\*\)/);
});

test("a rule the settings would ignore is refused with the parser's reason, and nothing is written", async () => {
  await run("add allow Bsh(ls)");
  await run("add allow Bash(timeout:*)");
  await run("add deny Bash(a && b)");
  await run("add maybe Bash(ls)");
  await run("add allow");
  expect(printed[0]).toBe(`error: "Bsh(ls)": unknown tool 'Bsh'; use Bash, Read, Edit, Write, Glob, Grep, WebFetch, TodoWrite, read_mcp_resource or mcp__<server>[__<tool>]; nothing was written`);
  expect(printed[1]).toContain("names only timeout, which runs another command");
  expect(printed[2]).toContain("a Bash rule names one plain command");
  expect(printed[3]).toStartWith("Usage: /permissions lists the rules; /permissions add [user] allow|ask|deny <rule>");
  expect(printed[4]).toStartWith("Usage:");
  expect(existsSync(projectFile())).toBe(false);
});
