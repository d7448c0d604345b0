import { describe, expect, test } from "bun:test";
import { environmentWithoutOwnSecrets, isWellKnownSecret, serverEnvironment } from "../../../src/system/own-secrets.ts";
import { runBinary } from "../../helpers/binary.ts";
import { BUN, CHAOS_SERVER, tempDir, writeConfig } from "../../helpers/paths.ts";

const PARENT = {
  PATH: "/bin",
  LANG: "C.UTF-8",
  GITHUB_TOKEN: "ghp-parent",
  GH_TOKEN: "gh-parent",
  AWS_SECRET_ACCESS_KEY: "aws-parent",
  AWS_PROFILE: "work",
  OPENAI_API_KEY: "sk-openai",
  STRIPE_API_KEY: "sk-stripe",
  MY_SERVICE_TOKEN: "tok",
  DB_PASSWORD: "pw",
  GOOGLE_APPLICATION_CREDENTIALS: "/keys/sa.json",
  ANTHROPIC_API_KEY: "sk-ant",
  ANTHROPIC_BASE_URL: "http://127.0.0.1:1",
};

describe("the environment of an MCP server", () => {
  test("keeps ordinary variables and withholds well-known secrets, naming each", () => {
    const { env, withheld } = serverEnvironment({}, PARENT);
    expect(env).toEqual({ PATH: "/bin", LANG: "C.UTF-8" });
    expect(withheld).toEqual(Object.keys(PARENT).filter((name) => name !== "PATH" && name !== "LANG").sort());
  });

  test("an entry that names a variable in its env passes it, and only that one", () => {
    const { env, withheld } = serverEnvironment({ GITHUB_TOKEN: "ghp-parent", EXTRA: "1" }, PARENT);
    expect(env).toEqual({ PATH: "/bin", LANG: "C.UTF-8", GITHUB_TOKEN: "ghp-parent", EXTRA: "1" });
    expect(withheld).not.toContain("GITHUB_TOKEN");
    expect(withheld).toContain("GH_TOKEN");
  });

  test("a variable whose value is a URL with a password is withheld whatever its name, unless the entry names it", () => {
    const parent = {
      PATH: "/bin",
      DATABASE_URL: "postgres://app:hunter22@db.internal:5432/app",
      CACHE: "redis://:pw@cache:6379",
      PUBLIC_URL: "https://example.com/x?y=1",
      AMQP_URL: "amqp://guest@broker",
      NOTE: "mail me at a://b:c@ later",
    };
    const { env, withheld } = serverEnvironment({}, parent);
    expect(withheld).toEqual(["CACHE", "DATABASE_URL"]);
    expect(env).toEqual({ PATH: "/bin", PUBLIC_URL: "https://example.com/x?y=1", AMQP_URL: "amqp://guest@broker", NOTE: "mail me at a://b:c@ later" });
    const named = serverEnvironment({ DATABASE_URL: parent.DATABASE_URL }, parent);
    expect(named.env.DATABASE_URL).toBe(parent.DATABASE_URL);
    expect(named.withheld).toEqual(["CACHE"]);
  });

  test("the rule: suffixes, prefixes and names, in any case", () => {
    for (const name of ["X_API_KEY", "X_APIKEY", "x_token", "X_SECRET", "X_SECRET_KEY", "X_ACCESS_KEY", "X_PRIVATE_KEY", "X_PASSWORD", "AWS_REGION", "OPENAI_ORG", "ANTHROPIC_MODEL", "GITHUB_TOKEN", "GH_TOKEN", "GOOGLE_APPLICATION_CREDENTIALS", "PGPASSWORD", "MYSQL_PWD"]) {
      expect([name, isWellKnownSecret(name)]).toEqual([name, true]);
    }
    for (const name of ["PATH", "HOME", "TOKENIZERS_PARALLELISM", "KEYBOARD", "SECRETARY", "NODE_ENV", "TERM"]) {
      expect([name, isWellKnownSecret(name)]).toEqual([name, false]);
    }
  });

  test("the bash tool's commands keep other tools' credentials (they act for the user), never cat-code's own", () => {
    expect(environmentWithoutOwnSecrets({}, PARENT)).toEqual(
      Object.fromEntries(Object.entries(PARENT).filter(([name]) => name !== "ANTHROPIC_API_KEY")),
    );
  });
});

describe("a real stdio server sees only what it should", () => {
  const printed = "GITHUB_TOKEN,AWS_SECRET_ACCESS_KEY,OPENAI_API_KEY,MY_SERVICE_TOKEN,ANTHROPIC_API_KEY,DATABASE_URL,CAT_CODE_VISIBLE";
  const printer = { command: BUN, args: [CHAOS_SERVER, `--print-env=${printed}`, "--crash=before-handshake"] };
  const env = {
    GITHUB_TOKEN: "ghp-sekrit",
    AWS_SECRET_ACCESS_KEY: "aws-sekrit",
    OPENAI_API_KEY: "openai-sekrit",
    MY_SERVICE_TOKEN: "service-sekrit",
    ANTHROPIC_API_KEY: "ant-sekrit",
    DATABASE_URL: "postgres://app:db-sekrit@db.internal/app",
    CAT_CODE_VISIBLE: "yes",
  };

  test("withheld unless named in the entry's env; mcp get says which were withheld", async () => {
    const config = writeConfig({ plain: printer, named: { ...printer, env: { GITHUB_TOKEN: "${GITHUB_TOKEN}" } } });
    const list = await runBinary(["mcp", "list", "--mcp-config", config], { env, cwd: tempDir() });
    const block = (name: string) => list.stdout.split(/\n(?=\S)/).find((part) => part.startsWith(`${name} `)) ?? "";
    expect(block("plain")).toContain("env CAT_CODE_VISIBLE=yes");
    for (const name of ["GITHUB_TOKEN", "AWS_SECRET_ACCESS_KEY", "OPENAI_API_KEY", "MY_SERVICE_TOKEN", "ANTHROPIC_API_KEY", "DATABASE_URL"]) {
      expect(block("plain")).toContain(`env ${name} unset`);
    }
    expect(block("named")).toContain("env GITHUB_TOKEN=ghp-sekrit");
    expect(block("named")).toContain("env AWS_SECRET_ACCESS_KEY unset");

    const get = await runBinary(["mcp", "get", "named", "--mcp-config", config], { env, cwd: tempDir() });
    const withheld = get.stdout.split("\n").find((line) => line.startsWith("  withheld:")) ?? "";
    expect(withheld).toContain("AWS_SECRET_ACCESS_KEY");
    expect(withheld).toContain("MY_SERVICE_TOKEN");
    expect(withheld).toContain("DATABASE_URL");
    expect(withheld).not.toContain("GITHUB_TOKEN");
    expect(withheld).toContain('(not passed to the server; name one in "env" to pass it)');
    const json = JSON.parse((await runBinary(["mcp", "get", "plain", "--json", "--mcp-config", config], { env, cwd: tempDir() })).stdout);
    expect(json.withheldEnv).toEqual(expect.arrayContaining(["GITHUB_TOKEN", "AWS_SECRET_ACCESS_KEY", "OPENAI_API_KEY", "MY_SERVICE_TOKEN", "ANTHROPIC_API_KEY"]));
  });
});
