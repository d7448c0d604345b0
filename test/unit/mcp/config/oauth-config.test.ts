import { describe, expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { addServer } from "../../../../src/mcp/config/config-writer.ts";
import { entrySecretValues } from "../../../../src/mcp/config/entry-secrets.ts";
import { parseConfigText } from "../../../../src/mcp/config/load-config.ts";
import { refusal } from "../../../helpers/refusal.ts";
import { tempDir } from "../../../helpers/paths.ts";

const URL_ = "https://mcp.linear.example/mcp";
const one = (entry: unknown, env: Record<string, string> = {}) =>
  parseConfigText(JSON.stringify({ mcpServers: { s: entry } }), "/cfg/mcp.json", "user", env).servers[0];
const http = (oauth: unknown) => ({ type: "http", url: URL_, oauth });

describe("the oauth block of an http entry", () => {
  test("every field is kept as written; the block is optional", () => {
    const oauth = {
      clientId: "cat-code-cli",
      clientSecret: "s3cret-value",
      scopes: ["read", "write:issues"],
      callbackPort: 8765,
      grant: "authorization_code",
      clientMetadataUrl: "https://cat.example/oauth/client.json",
    };
    expect(one(http(oauth))).toMatchObject({ ok: true, config: { type: "http", oauth } });
    const plain = one({ url: URL_ });
    expect(plain).toMatchObject({ ok: true });
    expect(plain?.ok && plain.config.type === "http" && plain.config.oauth).toBeUndefined();
  });

  test("${VAR} expands in it, in the secret and in each scope, like everywhere else", () => {
    const env = { LINEAR_SECRET: "lin-secret-42", LINEAR_CLIENT: "client-7", EXTRA_SCOPE: "admin" };
    const entry = one(http({ clientId: "${LINEAR_CLIENT}", clientSecret: "${LINEAR_SECRET}", scopes: ["read", "${EXTRA_SCOPE}"] }), env);
    expect(entry).toMatchObject({ ok: true, config: { oauth: { clientId: "client-7", clientSecret: "lin-secret-42", scopes: ["read", "admin"] } } });
    // What the entry was written as stays, for mcp get to show.
    expect(entry?.raw).toMatchObject({ oauth: { clientSecret: "${LINEAR_SECRET}" } });
  });

  test("an unset ${VAR} in the secret names the field and the variable, and fails only that entry", () => {
    expect(one(http({ clientId: "c", clientSecret: "${NOPE_UNSET_SECRET}" }))).toMatchObject({
      ok: false,
      error: '"oauth.clientSecret": environment variable NOPE_UNSET_SECRET is not set (set it, or write ${NOPE_UNSET_SECRET:-default})',
    });
    expect(one(http({ scopes: ["${NOPE_UNSET_SCOPE}"] }))).toMatchObject({ ok: false, error: expect.stringContaining('"oauth.scopes[0]": environment variable NOPE_UNSET_SCOPE') });
  });

  test("the expanded secret is one of the entry's secrets, masked wherever the entry's text is shown", () => {
    const entry = one(http({ clientId: "c", clientSecret: "${LINEAR_SECRET}" }), { LINEAR_SECRET: "lin-secret-42" });
    expect(entrySecretValues(entry!, { LINEAR_SECRET: "lin-secret-42" })).toContain("lin-secret-42");
  });

  const invalid: [string, unknown, string][] = [
    ["not an object", "client-7", '"oauth" must be an object, like {"clientId": "…", "clientSecret": "${SECRET}"}'],
    ["an empty clientId", { clientId: "" }, '"oauth.clientId" is empty'],
    ["a clientSecret that is not a string", { clientId: "c", clientSecret: 42 }, '"oauth.clientSecret" must be a string'],
    ["scopes as one string", { scopes: "read write" }, '"oauth.scopes" must be a list of scope names, like ["read", "write"]'],
    ["a scope with a space", { scopes: ["read write"] }, 'every item of "oauth.scopes" must be one scope name without spaces or quotes'],
    ["a port of 0", { callbackPort: 0 }, '"oauth.callbackPort" must be a port number from 1 to 65535'],
    ["a port over 65535", { callbackPort: 70000 }, '"oauth.callbackPort" must be a port number from 1 to 65535'],
    ["a port with a fraction", { callbackPort: 80.5 }, '"oauth.callbackPort" must be a whole port number from 1 to 65535'],
    ["a port as text", { callbackPort: "8080" }, '"oauth.callbackPort" must be a port number from 1 to 65535'],
    ["an unknown grant", { grant: "password" }, '"oauth.grant" must be "authorization_code" (the default: sign in with a browser) or "client_credentials"'],
    ["an http client metadata URL", { clientMetadataUrl: "http://cat.example/client.json" }, '"oauth.clientMetadataUrl" must be an https URL with a path'],
    ["a client metadata URL without a path", { clientMetadataUrl: "https://cat.example" }, '"oauth.clientMetadataUrl" must be an https URL with a path'],
    ["client_credentials without a client", { grant: "client_credentials" }, '"oauth.grant": "client_credentials" needs "oauth.clientId" and "oauth.clientSecret"; add both (the secret as "${VARIABLE}")'],
    ["client_credentials without a secret", { grant: "client_credentials", clientId: "c" }, 'needs "oauth.clientId" and "oauth.clientSecret"'],
  ];
  for (const [what, oauth, message] of invalid) {
    test(`${what}: an invalid entry saying what to write`, () => {
      expect(one(http(oauth))).toMatchObject({ ok: false, error: expect.stringContaining(message) });
    });
  }

  test("client_credentials with both is valid", () => {
    const oauth = { grant: "client_credentials", clientId: "machine", clientSecret: "${LINEAR_SECRET}" };
    expect(one(http(oauth), { LINEAR_SECRET: "x" })).toMatchObject({ ok: true, config: { oauth: { grant: "client_credentials", clientSecret: "x" } } });
  });

  test("an oauth block on a stdio entry is refused: it has no HTTP requests to sign", () => {
    expect(one({ command: "x", oauth: { clientId: "c" } })).toMatchObject({
      ok: false,
      error: '"oauth" is for http servers; a stdio server takes its credentials through "env"',
    });
  });

  test("mcp add's check refuses a bad block before writing, and accepts ${VAR}s that are not set yet", async () => {
    const path = join(tempDir(), "mcp.json");
    writeFileSync(path, "{}");
    const error = await refusal(addServer(path, "linear", http({ grant: "client_credentials", clientId: "c" })));
    expect(error.message).toContain('needs "oauth.clientId" and "oauth.clientSecret"');
    await addServer(path, "linear", http({ clientId: "c", clientSecret: "${NOT_SET_YET_SECRET}" }));
  });
});
