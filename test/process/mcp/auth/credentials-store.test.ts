import { describe, expect, test } from "bun:test";
import { chmodSync, existsSync, mkdirSync, readFileSync, readdirSync, statSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { AuthError } from "../../../../src/mcp/auth/auth-error.ts";
import { CredentialsStore, MAX_CREDENTIALS_BYTES, type StoredTokens } from "../../../../src/mcp/auth/credentials-store.ts";
import { type ClientRegistration, MAX_CLIENT_FIELD_CHARS } from "../../../../src/mcp/auth/client-registration.ts";
import { debugLines } from "../../../helpers/debug-lines.ts";
import { REPO, tempDir } from "../../../helpers/paths.ts";
import { waitFor } from "../../../helpers/wait-for.ts";

const URL_A = "https://mcp.linear.example/mcp";
const URL_B = "https://mcp.other.example/mcp";
const ISSUER = "https://auth.linear.example";

function storeIn(home = join(tempDir("cat-code-home-"), "home")) {
  return { home, store: new CredentialsStore({ env: { CAT_CODE_HOME: home }, now: () => 1_000 }) };
}

function tokens(access: string, extra: Partial<StoredTokens> = {}): StoredTokens {
  return { accessToken: access, tokenType: "Bearer", refreshToken: `${access}-refresh`, expiresAt: 2_000_000, scopes: ["read"], issuer: ISSUER, resource: URL_A, savedAt: 1_000, ...extra };
}

function registration(issuer: string, clientId: string): ClientRegistration {
  return { clientId, clientSecret: `${clientId}-secret`, authMethod: "client_secret_post", redirectUris: ["http://127.0.0.1/callback"], issuer };
}

async function failure(promise: Promise<unknown>): Promise<AuthError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof AuthError) return error;
    throw error;
  }
  throw new Error("expected an AuthError");
}

describe("credentials.json: where and with which permissions", () => {
  test("lives in CAT_CODE_HOME; a missing folder is created 0700 and the file 0600", async () => {
    const { home, store } = storeIn();
    expect(store.path).toBe(join(home, "credentials.json"));
    expect(store.tokens({ server: "linear", url: URL_A })).toBeUndefined();
    expect(existsSync(home)).toBe(false);
    await store.saveTokens({ server: "linear", url: URL_A }, tokens("tok-A"));
    expect(statSync(home).mode & 0o777).toBe(0o700);
    expect(statSync(store.path).mode & 0o777).toBe(0o600);
    // No lock or temporary file is left behind.
    expect(readdirSync(home)).toEqual(["credentials.json"]);
  });

  test("a file that exists readable by others is made 0600, on a write and on a read", async () => {
    const { home, store } = storeIn();
    mkdirSync(home, { mode: 0o755 });
    writeFileSync(store.path, "{}", { mode: 0o644 });
    chmodSync(store.path, 0o644);
    await store.saveTokens({ server: "linear", url: URL_A }, tokens("tok-A"));
    expect(statSync(store.path).mode & 0o777).toBe(0o600);
    // An existing folder is the user's: left as it is.
    expect(statSync(home).mode & 0o777).toBe(0o755);

    chmodSync(store.path, 0o664);
    expect(store.tokens({ server: "linear", url: URL_A })?.accessToken).toBe("tok-A");
    expect(statSync(store.path).mode & 0o777).toBe(0o600);
  });
});

describe("tokens", () => {
  test("are kept per entry and url: another url of the same entry gets none", async () => {
    const { store } = storeIn();
    const saved = tokens("tok-A");
    await store.saveTokens({ server: "linear", url: URL_A }, saved);
    expect(store.tokens({ server: "linear", url: URL_A })).toEqual(saved);
    expect(store.tokens({ server: "linear", url: URL_B })).toBeUndefined();
    expect(store.tokens({ server: "other", url: URL_A })).toBeUndefined();
    expect(store.hasTokens("linear")).toBe(true);
    expect(store.hasTokens("other")).toBe(false);
    // A new store (another process) reads the same.
    expect(new CredentialsStore({ env: { CAT_CODE_HOME: storeIn().home } }).hasTokens("linear")).toBe(false);
  });

  test("a second save replaces the first; other entries stay", async () => {
    const { store } = storeIn();
    await store.saveTokens({ server: "linear", url: URL_A }, tokens("tok-1"));
    await store.saveTokens({ server: "notion", url: URL_B }, tokens("tok-N", { resource: URL_B }));
    await store.saveTokens({ server: "linear", url: URL_A }, tokens("tok-2"));
    expect(store.tokens({ server: "linear", url: URL_A })?.accessToken).toBe("tok-2");
    expect(store.tokens({ server: "notion", url: URL_B })?.accessToken).toBe("tok-N");
  });

  test("forgetTokens removes and returns every url's tokens of the entry, nothing else", async () => {
    const { store } = storeIn();
    await store.saveTokens({ server: "linear", url: URL_A }, tokens("tok-A"));
    await store.saveTokens({ server: "linear", url: URL_B }, tokens("tok-B", { resource: URL_B }));
    await store.saveTokens({ server: "notion", url: URL_A }, tokens("tok-N"));
    await store.saveRegistration(registration(ISSUER, "client-1"));
    const forgotten = await store.forgetTokens("linear");
    expect(forgotten.map((t) => t.accessToken).sort()).toEqual(["tok-A", "tok-B"]);
    expect(store.hasTokens("linear")).toBe(false);
    expect(store.tokens({ server: "linear", url: URL_A })).toBeUndefined();
    expect(store.tokens({ server: "notion", url: URL_A })?.accessToken).toBe("tok-N");
    expect(store.registration(ISSUER)?.clientId).toBe("client-1");
    expect(JSON.parse(readFileSync(store.path, "utf8")).servers).toEqual({ notion: expect.any(Object) });
    expect(await store.forgetTokens("linear")).toEqual([]);
  });

  test("forgetting with no file writes none", async () => {
    const { home, store } = storeIn();
    expect(await store.forgetTokens("linear")).toEqual([]);
    expect(existsSync(home) && readdirSync(home).includes("credentials.json")).toBe(false);
  });

  test("server names that are names of Object's own properties are just names", async () => {
    const { store } = storeIn();
    for (const name of ["__proto__", "constructor", "toString"]) {
      expect(store.tokens({ server: name, url: URL_A })).toBeUndefined();
      expect(store.hasTokens(name)).toBe(false);
      await store.saveTokens({ server: name, url: URL_A }, tokens(`tok-${name}`));
      expect(store.tokens({ server: name, url: URL_A })?.accessToken).toBe(`tok-${name}`);
    }
    expect(Object.keys(JSON.parse(readFileSync(store.path, "utf8")).servers)).toEqual(["__proto__", "constructor", "toString"]);
  });

  test("tokens of a form cat-code never writes are refused at save and ignored at read", async () => {
    const { store } = storeIn();
    const error = await failure(store.saveTokens({ server: "linear", url: URL_A }, { ...tokens("tok-A"), accessToken: "" }));
    expect(error.message).toBe(`the tokens for 'linear' are not in a form cat-code keeps ("accessToken" is missing or invalid); nothing was saved`);
    mkdirSync(dirname(store.path), { recursive: true });
    writeFileSync(store.path, JSON.stringify({ servers: { linear: { tokens: { [URL_A]: { accessToken: "tok-hidden-1234", tokenType: 7 } } } } }));
    const lines = await debugLines(() => {
      expect(store.tokens({ server: "linear", url: URL_A })).toBeUndefined();
      expect(store.hasTokens("linear")).toBe(false);
    });
    expect(lines).toEqual([`${store.path}: the tokens of 'linear' cannot be used ("tokenType" is missing or invalid); ignored`]);
  });
});

describe("wanted scopes", () => {
  test("are kept per url until tokens with them are saved; an empty list forgets them", async () => {
    const { store } = storeIn();
    const key = { server: "linear", url: URL_A };
    expect(store.wantedScopes(key)).toBeUndefined();
    await store.saveWantedScopes(key, ["read", "write", "read"]);
    expect(store.wantedScopes(key)).toEqual(["read", "write"]);
    expect(store.wantedScopes({ server: "linear", url: URL_B })).toBeUndefined();
    // Tokens without every wanted scope: still wanted.
    await store.saveTokens(key, tokens("tok-1", { scopes: ["read"] }));
    expect(store.wantedScopes(key)).toEqual(["read", "write"]);
    // Tokens that carry them: no longer wanted.
    await store.saveTokens(key, tokens("tok-2", { scopes: ["read", "write", "admin"] }));
    expect(store.wantedScopes(key)).toBeUndefined();
    await store.saveWantedScopes(key, ["admin"]);
    await store.saveWantedScopes(key, []);
    expect(store.wantedScopes(key)).toBeUndefined();
    // Logging out keeps what the server asked for.
    await store.saveWantedScopes(key, ["admin"]);
    await store.forgetTokens("linear");
    expect(store.wantedScopes(key)).toEqual(["admin"]);
  });
});

describe("client registrations", () => {
  test("are kept per issuer", async () => {
    const { store } = storeIn();
    const first = registration(ISSUER, "client-1");
    const second = registration("https://auth.other.example/tenant", "client-2");
    await store.saveRegistration(first);
    await store.saveRegistration(second);
    expect(store.registration(ISSUER)).toEqual(first);
    expect(store.registration("https://auth.other.example/tenant")).toEqual(second);
    expect(store.registration("https://auth.other.example")).toBeUndefined();
    await store.saveRegistration({ ...first, clientId: "client-1b" });
    expect(store.registration(ISSUER)?.clientId).toBe("client-1b");
  });

  test("two of one issuer are both kept, found by client id or redirect URI; the newest otherwise", async () => {
    const { store } = storeIn();
    const first = { ...registration(ISSUER, "client-1"), redirectUris: ["http://127.0.0.1:4001/callback"] };
    const second = { ...registration(ISSUER, "client-2"), redirectUris: ["http://127.0.0.1:4002/callback"] };
    await store.saveRegistration(first);
    await store.saveRegistration(second);
    expect(store.registrations(ISSUER)).toEqual([first, second]);
    expect(store.registration(ISSUER)).toEqual(second);
    expect(store.registration(ISSUER, { clientId: "client-1" })).toEqual(first);
    expect(store.registration(ISSUER, { redirectUri: "http://127.0.0.1:4001/callback" })).toEqual(first);
    expect(store.registration(ISSUER, { clientId: "client-3" })).toBeUndefined();
    // Saving one again replaces it rather than adding a copy.
    await store.saveRegistration({ ...first, clientSecret: "renewed" });
    expect(store.registrations(ISSUER).map((r) => [r.clientId, r.clientSecret])).toEqual([["client-2", "client-2-secret"], ["client-1", "renewed"]]);
  });

  test("a file of an older cat-code (one registration per issuer) is read; a single one is still written that way", async () => {
    const { store } = storeIn();
    mkdirSync(dirname(store.path), { recursive: true });
    writeFileSync(store.path, JSON.stringify({ version: 1, registrations: { [ISSUER]: registration(ISSUER, "client-old") } }));
    expect(store.registration(ISSUER)?.clientId).toBe("client-old");
    await store.saveRegistration(registration("https://auth.other.example", "client-x"));
    expect(JSON.parse(readFileSync(store.path, "utf8")).registrations["https://auth.other.example"].clientId).toBe("client-x");
  });

  test("past eight of one issuer, the oldest that no tokens name goes", async () => {
    const { store } = storeIn();
    await store.saveRegistration(registration(ISSUER, "client-0"));
    await store.saveTokens({ server: "linear", url: URL_A }, tokens("tok-A", { clientId: "client-0" }));
    for (let i = 1; i <= 8; i++) await store.saveRegistration(registration(ISSUER, `client-${i}`));
    const kept = store.registrations(ISSUER).map((r) => r.clientId);
    expect(kept).toHaveLength(8);
    expect(kept).toContain("client-0");
    expect(kept).not.toContain("client-1");
  });

  test("past eight with every older one in use: the one just added is kept, and so is each one tokens name", async () => {
    const { store } = storeIn();
    for (let i = 0; i < 8; i++) {
      await store.saveRegistration(registration(ISSUER, `client-${i}`));
      await store.saveTokens({ server: `server-${i}`, url: URL_A }, tokens(`tok-${i}`, { clientId: `client-${i}` }));
    }
    await store.saveRegistration(registration(ISSUER, "client-new"));
    expect(store.registration(ISSUER)?.clientId).toBe("client-new");
    expect(store.registrations(ISSUER)).toHaveLength(9);
    // Once their tokens are gone, the oldest unused go at the next save past the bound; the list is back at eight.
    await store.forgetTokens("server-0");
    await store.forgetTokens("server-1");
    await store.saveRegistration(registration(ISSUER, "client-newer"));
    expect(store.registrations(ISSUER).map((r) => r.clientId)).toEqual([2, 3, 4, 5, 6, 7, "new", "newer"].map((n) => `client-${n}`));
  });

  test("a client id and secret as long as registration takes them are stored, and tokens naming that client too", async () => {
    const { store } = storeIn();
    const long = { ...registration(ISSUER, "c".repeat(MAX_CLIENT_FIELD_CHARS)), clientSecret: "s".repeat(MAX_CLIENT_FIELD_CHARS) };
    await store.saveRegistration(long);
    await store.saveTokens({ server: "linear", url: URL_A }, tokens("tok-A", { clientId: long.clientId }));
    expect(store.registration(ISSUER, { clientId: long.clientId })).toEqual(long);
    expect(store.tokens({ server: "linear", url: URL_A })?.clientId).toBe(long.clientId);
  });

  test("one filed under another issuer's name is not handed out", async () => {
    const { store } = storeIn();
    mkdirSync(dirname(store.path), { recursive: true });
    writeFileSync(store.path, JSON.stringify({ registrations: { [ISSUER]: registration("https://evil.example", "client-x") } }));
    expect(store.registration(ISSUER)).toBeUndefined();
  });
});

describe("read at each use, renewed under the lock", () => {
  const key = { server: "linear", url: URL_A };

  test("a change another process made this instant is seen by the next read, even at the same size", async () => {
    const { home, store } = storeIn();
    await store.saveTokens(key, tokens("tok-A"));
    expect(store.tokens(key)?.accessToken).toBe("tok-A");
    await storeIn(home).store.saveTokens(key, tokens("tok-B"));
    expect(store.tokens(key)?.accessToken).toBe("tok-B");
    await storeIn(home).store.forgetTokens("linear");
    expect(store.tokens(key)).toBeUndefined();
  });

  test("renewTokens hands over what is stored under the lock and keeps what it returns; undefined keeps the stored", async () => {
    const { home, store } = storeIn();
    await store.saveTokens(key, tokens("tok-A"));
    // Another process renewed them after this one read its tokens: the renewal sees theirs.
    await storeIn(home).store.saveTokens(key, tokens("tok-B"));
    let seen: StoredTokens | undefined;
    const kept = await store.renewTokens(key, async (stored) => {
      seen = stored;
      return undefined;
    });
    expect(seen?.accessToken).toBe("tok-B");
    expect(kept?.accessToken).toBe("tok-B");
    const renewed = await store.renewTokens(key, async () => tokens("tok-C"));
    expect(renewed?.accessToken).toBe("tok-C");
    expect(storeIn(home).store.tokens(key)?.accessToken).toBe("tok-C");
  });

  test("a renewal that throws writes nothing; one after a logout sees no tokens", async () => {
    const { store } = storeIn();
    await store.saveTokens(key, tokens("tok-A"));
    const before = readFileSync(store.path, "utf8");
    await expect(store.renewTokens(key, async () => Promise.reject(new AuthError("refused")))).rejects.toThrow("refused");
    expect(readFileSync(store.path, "utf8")).toBe(before);
    await store.forgetTokens("linear");
    let seen: StoredTokens | undefined = tokens("not called");
    await store.renewTokens(key, async (stored) => {
      seen = stored;
      return undefined;
    });
    expect(seen).toBeUndefined();
    expect(store.hasTokens("linear")).toBe(false);
  });

  test("renewals from two processes take turns: the second, waiting for the lock meanwhile, renews the first one's result", async () => {
    const { home, store } = storeIn();
    await store.saveTokens(key, tokens("tok-0"));
    const markers = tempDir("cat-code-renewals-");
    const [firstRenewing, secondWaiting] = [join(markers, "first-renewing"), join(markers, "second-waiting")];
    const renewal = (name: string) => `async (stored) => ({ ...stored, accessToken: stored.accessToken + "-${name}" })`;
    const first = storeProcess(
      home,
      `
      const { existsSync, writeFileSync } = await import("node:fs");
      const { waitFor } = await import(${JSON.stringify(join(REPO, "test/helpers/wait-for.ts"))});
      await new CredentialsStore().renewTokens(${JSON.stringify(key)}, async (stored) => {
        writeFileSync(${JSON.stringify(firstRenewing)}, "");
        // The lock is held until the second process has asked for it: the two overlap for certain.
        await waitFor(() => existsSync(${JSON.stringify(secondWaiting)}), "the second renewal to wait for the lock");
        return (${renewal("x")})(stored);
      });`,
    );
    await waitFor(() => existsSync(firstRenewing), "the first renewal to hold the lock");
    const second = storeProcess(
      home,
      `
      const { writeFileSync } = await import("node:fs");
      // renewTokens tries the lock before its first wait: when the call returns, it has found the lock held.
      const renewing = new CredentialsStore().renewTokens(${JSON.stringify(key)}, ${renewal("y")});
      writeFileSync(${JSON.stringify(secondWaiting)}, "");
      await renewing;`,
    );
    const results = await Promise.all([first, second].map(async (child) => [await child.exited, await new Response(child.stderr).text()]));
    expect(results).toEqual([[0, ""], [0, ""]]);
    // Neither renewal was lost, and they ran in this order: the second renewed the first one's result.
    expect(store.tokens(key)!.accessToken).toBe("tok-0-x-y");
  });

  test("forgetTokens with a url forgets that url's tokens only", async () => {
    const { store } = storeIn();
    await store.saveTokens(key, tokens("tok-A"));
    await store.saveTokens({ server: "linear", url: URL_B }, tokens("tok-B", { resource: URL_B }));
    expect((await store.forgetTokens("linear", URL_A)).map((t) => t.accessToken)).toEqual(["tok-A"]);
    expect(store.tokens(key)).toBeUndefined();
    expect(store.tokens({ server: "linear", url: URL_B })?.accessToken).toBe("tok-B");
  });
});

describe("a file that cannot be used", () => {
  const cases: [string, (path: string) => void, string][] = [
    ["a corrupt file", (path) => writeFileSync(path, '{"servers": {"linear": {"tokens": {"u": {"accessToken": "tok-secret-corrupt",,}}}}}'), "is not valid JSON; move it away (or delete it) and sign in again"],
    ["a file of another shape", (path) => writeFileSync(path, '{"servers": ["tok-secret-corrupt"]}'), "is not a file of cat-code's sign-ins; move it away (or delete it) and sign in again"],
    ["an oversized file", (path) => writeFileSync(path, JSON.stringify({ pad: "tok-secret-corrupt".repeat(MAX_CREDENTIALS_BYTES / 16) })), "larger than"],
  ];
  for (const [what, make, message] of cases) {
    test(`${what}: reads find no tokens (a debug line), writes are refused and change nothing`, async () => {
      const { home, store } = storeIn();
      mkdirSync(home, { recursive: true });
      make(store.path);
      const before = readFileSync(store.path);
      const lines = await debugLines(() => {
        expect(store.tokens({ server: "linear", url: "u" })).toBeUndefined();
        expect(store.hasTokens("linear")).toBe(false);
        expect(store.registration(ISSUER)).toBeUndefined();
      });
      // (The logger may fold the same line repeated at once into one.)
      expect(lines.length).toBeGreaterThan(0);
      for (const line of lines) {
        expect(line).toContain(store.path);
        expect(line).toContain(message);
        expect(line).toEndWith("; no stored sign-in is used");
      }
      const error = await failure(store.saveTokens({ server: "linear", url: "u" }, tokens("tok-new")));
      expect(error.message).toContain(store.path);
      expect(error.message).toContain(message);
      expect(error.message).toEndWith("nothing was written");
      for (const text of [...lines, error.message]) expect(text).not.toContain("tok-secret");
      expect(readFileSync(store.path).equals(before)).toBe(true);
      expect(readdirSync(home)).toEqual(["credentials.json"]);
    });
  }

  test("a file that would grow past the bound is refused, nothing written", async () => {
    const { store } = storeIn();
    await store.saveTokens({ server: "linear", url: URL_A }, tokens("tok-A"));
    const before = readFileSync(store.path, "utf8");
    // Scopes are bounded one by one; a thousand servers' worth of them is not.
    const many = Array.from({ length: 256 }, (_, i) => `scope-${i}-${"x".repeat(1000)}`);
    for (const server of ["a", "b", "c"]) await store.saveWantedScopes({ server, url: URL_A }, many);
    const grown = readFileSync(store.path, "utf8");
    const error = await failure(store.saveWantedScopes({ server: "d", url: URL_A }, many));
    expect(error.message).toBe(`${store.path} would grow past 1024 KB; run cat-code mcp logout for servers you no longer use; nothing was written`);
    expect(readFileSync(store.path, "utf8")).toBe(grown);
    expect(grown).toContain(before.split("\n")[3] as string);
    expect(store.wantedScopes({ server: "d", url: URL_A })).toBeUndefined();
  });
});

/** Runs `body` (TypeScript, with `CredentialsStore` in scope) in a separate Bun process. */
function storeProcess(home: string, body: string, env: Record<string, string> = {}) {
  const source = `const { CredentialsStore } = await import(${JSON.stringify(join(REPO, "src/mcp/auth/credentials-store.ts"))});\n${body}`;
  return Bun.spawn([process.execPath, "-e", source], {
    env: { ...process.env, CAT_CODE_HOME: home, ...env },
    stdout: "pipe",
    stderr: "pipe",
  });
}

describe("other processes", () => {
  test("two processes saving at once both keep every change", async () => {
    const { home, store } = storeIn();
    const saves = (prefix: string) => `
      const store = new CredentialsStore();
      for (let i = 0; i < 15; i++) {
        await store.saveTokens({ server: "${prefix}" + i, url: "${URL_A}" }, { accessToken: "tok-${prefix}" + i, tokenType: "Bearer", issuer: "${ISSUER}", resource: "${URL_A}", savedAt: i });
        await store.saveRegistration({ clientId: "${prefix}" + i, authMethod: "none", redirectUris: [], issuer: "https://${prefix}" + i + ".example" });
      }`;
    const children = [storeProcess(home, saves("first")), storeProcess(home, saves("second"))];
    const results = await Promise.all(children.map(async (child) => [await child.exited, await new Response(child.stderr).text()]));
    expect(results).toEqual([[0, ""], [0, ""]]);
    for (const prefix of ["first", "second"]) {
      for (let i = 0; i < 15; i++) {
        expect(store.tokens({ server: `${prefix}${i}`, url: URL_A })?.accessToken).toBe(`tok-${prefix}${i}`);
        expect(store.registration(`https://${prefix}${i}.example`)?.clientId).toBe(`${prefix}${i}`);
      }
    }
    expect(readdirSync(home)).toEqual(["credentials.json"]);
    expect(statSync(store.path).mode & 0o777).toBe(0o600);
  });

  test("no token, refresh token or client secret reaches stderr, even with debug on and every path taken", async () => {
    const { home } = storeIn();
    const child = storeProcess(
      home,
      `
      const { writeFileSync } = await import("node:fs");
      const store = new CredentialsStore();
      const key = { server: "linear", url: "${URL_A}" };
      await store.saveTokens(key, { accessToken: "tok-SECRET-access", refreshToken: "tok-SECRET-refresh", tokenType: "Bearer", issuer: "${ISSUER}", resource: "${URL_A}", savedAt: 1 });
      await store.saveRegistration({ clientId: "c", clientSecret: "tok-SECRET-client", authMethod: "client_secret_basic", redirectUris: [], issuer: "${ISSUER}" });
      console.error("read:", store.tokens(key) !== undefined, store.registration("${ISSUER}") !== undefined);
      writeFileSync(store.path, JSON.stringify({ servers: { linear: { tokens: { "${URL_A}": { accessToken: "tok-SECRET-access", tokenType: ["tok-SECRET-type"] } } } }, registrations: { "${ISSUER}": { clientId: 5, clientSecret: "tok-SECRET-client" } } }));
      store.tokens(key); store.registration("${ISSUER}");
      writeFileSync(store.path, '{"tok-SECRET-corrupt": tok-SECRET-bare}');
      store.tokens(key);
      try { await store.saveTokens(key, { accessToken: "tok-SECRET-new", tokenType: "Bearer", issuer: "${ISSUER}", resource: "${URL_A}", savedAt: 2 }); } catch (error) { console.error("refused:", error.message); }
      try { await store.saveTokens(key, { accessToken: "tok-SECRET-new", tokenType: "", issuer: "${ISSUER}", resource: "${URL_A}", savedAt: 2 }); } catch (error) { console.error("refused:", error.message); }
      `,
      { CAT_CODE_DEBUG: "1" },
    );
    const [exitCode, stdout, stderr] = await Promise.all([child.exited, new Response(child.stdout).text(), new Response(child.stderr).text()]);
    expect(exitCode).toBe(0);
    // A positive sign that every path ran and logged.
    expect(stderr).toContain("read: true true");
    expect(stderr).toContain("cannot be used");
    expect(stderr).toContain("is not valid JSON");
    expect(stderr.match(/refused:/g)?.length).toBe(2);
    expect(stdout + stderr).not.toContain("SECRET");
  });
});
