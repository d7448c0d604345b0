import { describe, expect, test } from "bun:test";
import { findBash } from "../../../../src/agent/tools/find-bash.ts";

/** A Windows file system holding exactly these files. */
const files = (...paths: string[]) => (path: string) => paths.includes(path);

describe("the bash tool's shell", () => {
  test("on Linux and macOS, bash from PATH", () => {
    expect(findBash("linux", {}, files())).toEqual({ ok: true, path: "bash" });
    expect(findBash("darwin", {}, files())).toEqual({ ok: true, path: "bash" });
  });

  test("on Windows, Git Bash in Program Files", () => {
    const env = { ProgramFiles: "C:\\Program Files" };
    expect(findBash("win32", env, files("C:\\Program Files\\Git\\bin\\bash.exe"))).toEqual({ ok: true, path: "C:\\Program Files\\Git\\bin\\bash.exe" });
  });

  test("on Windows, a per-user Git install, with variable names in any case", () => {
    const env = { LOCALAPPDATA: "C:\\Users\\me\\AppData\\Local", PROGRAMFILES: "C:\\Program Files" };
    const bash = "C:\\Users\\me\\AppData\\Local\\Programs\\Git\\bin\\bash.exe";
    expect(findBash("win32", env, files(bash))).toEqual({ ok: true, path: bash });
  });

  test("on Windows, Git Bash beside the git.exe found on PATH", () => {
    const env = { Path: "C:\\Windows\\System32;D:\\Tools\\Git\\cmd\\" };
    const exists = files("C:\\Windows\\System32\\bash.exe", "D:\\Tools\\Git\\cmd\\git.exe", "D:\\Tools\\Git\\bin\\bash.exe");
    expect(findBash("win32", env, exists)).toEqual({ ok: true, path: "D:\\Tools\\Git\\bin\\bash.exe" });
  });

  test("on Windows, never WSL's bash.exe from System32, even when it is all there is", () => {
    const result = findBash("win32", { PATH: "C:\\Windows\\System32" }, files("C:\\Windows\\System32\\bash.exe"));
    expect(result).toEqual({ ok: false, reason: expect.stringContaining("the bash tool needs Git Bash on Windows") });
  });

  test("on Windows, CAT_CODE_GIT_BASH_PATH wins, and a wrong one is named in the error", () => {
    const chosen = "E:\\git\\usr\\bin\\bash.exe";
    const installed = { ProgramFiles: "C:\\Program Files" };
    const both = files(chosen, "C:\\Program Files\\Git\\bin\\bash.exe");
    expect(findBash("win32", { ...installed, CAT_CODE_GIT_BASH_PATH: chosen }, both)).toEqual({ ok: true, path: chosen });
    const wrong = findBash("win32", { ...installed, CAT_CODE_GIT_BASH_PATH: "E:\\nope\\bash.exe" }, both);
    expect(wrong.ok).toBe(false);
    expect(!wrong.ok && wrong.reason).toContain("CAT_CODE_GIT_BASH_PATH names E:\\nope\\bash.exe, which does not exist");
  });

  test("on Windows without Git, one line saying what to install or set", () => {
    const result = findBash("win32", { ProgramFiles: "C:\\Program Files", PATH: "C:\\Windows" }, files());
    expect(result.ok).toBe(false);
    const reason = !result.ok ? result.reason : "";
    expect(reason).toContain("install Git for Windows (https://git-scm.com/download/win), or set CAT_CODE_GIT_BASH_PATH");
    expect(reason).not.toContain("\n");
  });
});
