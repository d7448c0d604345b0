import { afterEach, expect, test } from "bun:test";
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { expandArguments, parseCommandFile } from "../../../src/repl/command-file.ts";
import { loadCustomCommands, MAX_COMMAND_FILE_BYTES } from "../../../src/repl/custom-commands.ts";
import { customCommandTurn } from "../../../src/repl/custom-command-run.ts";
import { tempDir } from "../../helpers/paths.ts";

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function write(path: string, text: string): void {
  mkdirSync(join(path, ".."), { recursive: true });
  writeFileSync(path, text);
}

test("front matter as Claude Code writes it: description, allowed-tools (one line or a list), argument-hint; the body after it", () => {
  const file = parseCommandFile(
    ["---", 'description: "Create a git commit"', "allowed-tools: Bash(git add:*), Bash(git status:*), Read", "argument-hint: [message]", "---", "", "Commit with message: $ARGUMENTS"].join("\n"),
  );
  expect(file).toEqual({ description: "Create a git commit", argumentHint: "[message]", allowedTools: ["Bash(git add:*)", "Bash(git status:*)", "Read"], body: "Commit with message: $ARGUMENTS" });
  const listed = parseCommandFile("---\r\nallowed-tools:\r\n  - Bash(npm test:*)\r\n  - Grep\r\n---\r\nRun the tests.\r\n");
  expect(listed.allowedTools).toEqual(["Bash(npm test:*)", "Grep"]);
  // No description: the body's first line stands for it.
  expect(listed.description).toBe("Run the tests.");
  expect(parseCommandFile("no front matter\n---\nat all").body).toBe("no front matter\n---\nat all");
});

test("a hostile description is sanitized to one bounded line", () => {
  const file = parseCommandFile(`---\ndescription: evil \u001b]0;title\u0007\u001b[2J${"x".repeat(500)}\n---\nbody`);
  expect(file.description).not.toContain("\u001b");
  expect(file.description.length).toBeLessThanOrEqual(200);
  expect(file.description.startsWith("evil ")).toBe(true);
});

test("$ARGUMENTS is all that was typed, $1… its words (quotes group); a command without them gets the arguments after it", () => {
  expect(expandArguments("Fix issue #$1 with priority $2. All: $ARGUMENTS", `123 "very high"`)).toBe(`Fix issue #123 with priority very high. All: 123 "very high"`);
  expect(expandArguments("Missing: [$3]", "a b")).toBe("Missing: []");
  expect(expandArguments("Review the code.", "src/a.ts")).toBe("Review the code.\n\nARGUMENTS: src/a.ts");
  expect(expandArguments("Review the code.", "")).toBe("Review the code.");
  expect(expandArguments("cost $10 and $ARGUMENTS", "x")).toBe("cost $10 and x");
});

test("commands come from the user's and the project's folders; subfolders are folder:name; the project's win; built-in names are never taken", () => {
  const home = tempDir("cat-code-commands-home-");
  const project = tempDir("cat-code-commands-project-");
  dirs.push(home, project);
  const env = { CAT_CODE_HOME: join(home, ".cat-code") };
  write(join(home, ".claude", "commands", "review.md"), "user review");
  write(join(home, ".cat-code", "commands", "mine.md"), "---\ndescription: my own\n---\nmine");
  write(join(project, ".claude", "commands", "review.md"), "project review");
  write(join(project, ".claude", "commands", "frontend", "test.md"), "frontend tests");
  write(join(project, ".cat-code", "commands", "clear.md"), "a project's /clear");
  write(join(project, ".cat-code", "commands", "mcp__github__review.md"), "a server prompt's stand-in");
  write(join(project, ".cat-code", "commands", "bad name!.md"), "skipped");
  write(join(project, ".cat-code", "commands", "notes.txt"), "not a command");
  const commands = loadCustomCommands(project, ["clear", "help"], env);
  expect(commands.map((c) => [c.name, c.scope, c.body])).toEqual([
    ["frontend:test", "project", "frontend tests"],
    ["mine", "user", "mine"],
    ["review", "project", "project review"],
  ]);
});

test("a huge command file is read only up to its bound; a project's allowed-tools are shown, not applied; a user's are", () => {
  const project = tempDir("cat-code-commands-big-");
  dirs.push(project);
  write(join(project, ".cat-code", "commands", "big.md"), "y".repeat(MAX_COMMAND_FILE_BYTES * 3));
  write(join(project, ".cat-code", "commands", "grant.md"), "---\nallowed-tools: Bash, Bsh(\n---\ndo it");
  const commands = loadCustomCommands(project, [], { CAT_CODE_HOME: join(project, "no-home") });
  expect(commands.find((c) => c.name === "big")?.body.length).toBe(MAX_COMMAND_FILE_BYTES);
  const grant = commands.find((c) => c.name === "grant")!;
  const printed: string[] = [];
  expect(customCommandTurn(grant, "", (line) => printed.push(line)).allow).toEqual([]);
  expect(printed.join("\n")).toContain("allowed-tools 'Bsh(' is left out");
  expect(printed.join("\n")).toContain("its allowed-tools (Bash) are not applied");
  expect(customCommandTurn({ ...grant, scope: "user" }, "", () => {}).allow).toEqual(["Bash"]);
});

test("allowed-tools as a YAML flow list", () => {
  expect(parseCommandFile("---\nallowed-tools: [Read, Grep]\n---\nx").allowedTools).toEqual(["Read", "Grep"]);
});
