import { afterEach, describe, expect, test } from "bun:test";
import { AuthError } from "../../../../src/mcp/auth/auth-error.ts";
import { listenForCallback, type CallbackListener } from "../../../../src/mcp/auth/loopback-listener.ts";
import { FakeClock } from "../../../helpers/fake-clock.ts";
import { authFailure } from "../../../helpers/oauth-endpoint.ts";

const ISSUER = "http://127.0.0.1:9/tenant";
const STATE = "state-XYZ";
const opened: CallbackListener[] = [];
afterEach(() => {
  for (const listener of opened.splice(0)) listener.close();
});

async function listen(options: Partial<Parameters<typeof listenForCallback>[0]> = {}): Promise<CallbackListener> {
  const listener = await listenForCallback({ state: STATE, issuer: ISSUER, issParameterSupported: false, ...options });
  opened.push(listener);
  return listener;
}

/** The browser arriving at the redirect: the page it shows. */
async function visit(listener: CallbackListener, query: Record<string, string> | string, path = "/callback"): Promise<{ status: number; html: string; headers: Headers }> {
  const search = typeof query === "string" ? query : new URLSearchParams(query).toString();
  const response = await fetch(`http://127.0.0.1:${listener.port}${path}?${search}`);
  return { status: response.status, html: await response.text(), headers: response.headers };
}

/** What the listener's promise has come to once every pending callback has run: the positive sign that nothing else will. */
async function outcome(listener: CallbackListener): Promise<"pending" | { code: string } | AuthError> {
  let result: "pending" | { code: string } | AuthError = "pending";
  listener.response.then(
    (response) => (result = response),
    (error: AuthError) => (result = error),
  );
  await new Promise((resolve) => setImmediate(resolve));
  return result;
}

describe("the loopback listener receives the authorization response", () => {
  test("the right state and a code: resolves with the code; the page says to return to the terminal", async () => {
    const listener = await listen();
    expect(listener.redirectUri).toBe(`http://127.0.0.1:${listener.port}/callback`);
    expect(listener.port).toBeGreaterThan(0);
    const page = await visit(listener, { code: "CODE-1", state: STATE });
    expect(await listener.response).toEqual({ code: "CODE-1" });
    expect(page.status).toBe(200);
    expect(page.html).toContain("cat-code is signed in. You can close this tab and return to the terminal.");
    expect(page.html).not.toContain("CODE-1");
    expect(page.headers.get("content-type")).toBe("text/html; charset=utf-8");
    expect(page.headers.get("cache-control")).toBe("no-store");
    expect(page.headers.get("content-security-policy")).toBe("default-src 'none'");
  });

  test("a wrong or missing state rejects, and the browser page says so", async () => {
    for (const query of [{ code: "CODE-1", state: "forged" }, { code: "CODE-1" }] as Record<string, string>[]) {
      const listener = await listen();
      const page = await visit(listener, query);
      const error = await authFailure(listener.response);
      expect(error.message).toBe("the sign-in's redirect does not carry this sign-in's state (a forged or stale redirect): refused; run the login again");
      expect(page.status).toBe(400);
      expect(page.html).toContain("the sign-in&#39;s redirect does not carry this sign-in&#39;s state");
    }
  });

  test("error=access_denied rejects with the server's words, cleaned; the page escapes them", async () => {
    const listener = await listen();
    const page = await visit(listener, { error: "access_denied", error_description: "<script>alert(1)</script>\u001b[2J You said no", state: STATE });
    const error = await authFailure(listener.response);
    expect(error.message).toBe(`the authorization server ${ISSUER} did not sign you in: access_denied (<script>alert(1)</script> [2J You said no)`);
    expect(error.oauthError).toBe("access_denied");
    expect(page.html).not.toContain("<script>");
    expect(page.html).toContain("&#60;script&#62;alert(1)&#60;/script&#62;");
  });

  test("a redirect without a code rejects", async () => {
    const listener = await listen();
    await visit(listener, { state: STATE });
    expect((await authFailure(listener.response)).message).toBe(`the sign-in's redirect from ${ISSUER} carries no usable authorization code: run the login again`);
  });

  test("a parameter given twice rejects", async () => {
    const listener = await listen();
    await visit(listener, `code=A&code=B&state=${STATE}`);
    expect((await authFailure(listener.response)).message).toBe(`the sign-in's redirect repeats "code", which RFC 6749 forbids: refused`);
  });
});

describe("iss in the redirect (RFC 9207, conformance auth/iss-*)", () => {
  const cases: { scenario: string; supported: boolean; iss?: string; accepted: boolean }[] = [
    { scenario: "auth/iss-supported", supported: true, iss: ISSUER, accepted: true },
    { scenario: "auth/iss-not-advertised", supported: false, accepted: true },
    { scenario: "not advertised, sent and right", supported: false, iss: ISSUER, accepted: true },
    { scenario: "auth/iss-supported-missing", supported: true, accepted: false },
    { scenario: "auth/iss-wrong-issuer", supported: true, iss: "https://evil.example.com", accepted: false },
    { scenario: "auth/iss-unexpected", supported: false, iss: "https://evil.example.com", accepted: false },
    { scenario: "auth/iss-normalized (a trailing slash)", supported: true, iss: `${ISSUER}/`, accepted: false },
    { scenario: "case folded", supported: true, iss: ISSUER.toUpperCase(), accepted: false },
  ];
  for (const { scenario, supported, iss, accepted } of cases) {
    test(`${scenario}: ${accepted ? "accepted" : "refused"}`, async () => {
      const listener = await listen({ issParameterSupported: supported });
      const page = await visit(listener, { code: "CODE-1", state: STATE, ...(iss !== undefined ? { iss } : {}) });
      if (accepted) {
        expect(await listener.response).toEqual({ code: "CODE-1" });
        return;
      }
      const error = await authFailure(listener.response);
      expect(page.status).toBe(400);
      expect(error.message).toBe(
        iss === undefined
          ? `the authorization server ${ISSUER} promises an "iss" in its redirect (RFC 9207) but this one has none: refused, as it may come from another server`
          : `the sign-in's redirect says it comes from ${iss}, not from ${ISSUER} where cat-code signed in (compared exactly): refused, as a mix-up attack would look like this`,
      );
    });
  }

  test("an error response with a wrong iss is refused for the iss, not reported as the server's error", async () => {
    const listener = await listen({ issParameterSupported: true });
    await visit(listener, { error: "access_denied", state: STATE, iss: "https://evil.example.com" });
    const error = await authFailure(listener.response);
    expect(error.message).toContain("says it comes from https://evil.example.com");
    expect(error.oauthError).toBeUndefined();
  });
});

describe("the listener's life", () => {
  test("other paths get 404 and do not end the wait (a favicon request)", async () => {
    const listener = await listen();
    expect((await visit(listener, "", "/favicon.ico")).status).toBe(404);
    expect((await visit(listener, { code: "C", state: STATE }, "/callback/x")).status).toBe(404);
    expect(await outcome(listener)).toBe("pending");
    await visit(listener, { code: "CODE-2", state: STATE });
    expect(await listener.response).toEqual({ code: "CODE-2" });
  });

  test("a second redirect after the first changes nothing", async () => {
    const listener = await listen();
    await visit(listener, { code: "CODE-1", state: STATE });
    const again = await visit(listener, { code: "CODE-EVIL", state: STATE });
    expect(again.status).toBe(409);
    expect(await listener.response).toEqual({ code: "CODE-1" });
  });

  test("times out after 5 minutes of the injected clock, not before", async () => {
    const clock = new FakeClock();
    const listener = await listen({ clock });
    clock.advance(5 * 60_000 - 1);
    expect(await outcome(listener)).toBe("pending");
    clock.advance(1);
    expect((await authFailure(listener.response)).message).toBe("no sign-in arrived within 5 minutes: run the login again and finish it in the browser");
    expect(clock.pending()).toBe(0);
  });

  test("a redirect in time clears the timer", async () => {
    const clock = new FakeClock();
    const listener = await listen({ clock, timeoutMs: 1000 });
    await visit(listener, { code: "CODE-1", state: STATE });
    await listener.response;
    expect(clock.pending()).toBe(0);
  });

  test("an abort rejects at once; an aborted signal listens to nothing", async () => {
    const controller = new AbortController();
    const clock = new FakeClock();
    const listener = await listen({ signal: controller.signal, clock });
    controller.abort();
    expect((await authFailure(listener.response)).message).toBe("the sign-in was cancelled");
    expect(clock.pending()).toBe(0);
    expect((await authFailure(listenForCallback({ state: STATE, issuer: ISSUER, issParameterSupported: false, signal: controller.signal }))).message).toBe("the sign-in was cancelled");
  });

  test("a fixed port: used when free; when taken, an AuthError names it and oauth.callbackPort", async () => {
    const taken = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: () => new Response("other program") });
    const port = taken.port as number;
    try {
      const clock = new FakeClock();
      const error = await authFailure(listenForCallback({ port, state: STATE, issuer: ISSUER, issParameterSupported: false, clock }));
      expect(error.message).toBe(
        `port ${port} on 127.0.0.1 is taken, so the sign-in cannot receive its redirect there: free it, or set "oauth.callbackPort" in the server's entry to another port (or remove it to use any free port)`,
      );
      expect(clock.pending()).toBe(0);
    } finally {
      await taken.stop(true);
    }
    const listener = await listen({ port });
    expect(listener.redirectUri).toBe(`http://127.0.0.1:${port}/callback`);
  });

  test("closed afterwards: the port is free again; close twice is harmless; a close before any redirect rejects", async () => {
    const listener = await listen();
    listener.close();
    listener.close();
    expect((await authFailure(listener.response)).message).toBe("the sign-in was cancelled");
    const again = Bun.serve({ hostname: "127.0.0.1", port: listener.port, fetch: () => new Response("mine") });
    try {
      expect(again.port).toBe(listener.port);
    } finally {
      await again.stop(true);
    }
  });

  test("closed right after the code arrives: the browser still got its page, and the port is free", async () => {
    const listener = await listen();
    const page = visit(listener, { code: "CODE-1", state: STATE });
    await listener.response;
    listener.close();
    expect((await page).status).toBe(200);
    const again = Bun.serve({ hostname: "127.0.0.1", port: listener.port, fetch: () => new Response("mine") });
    await again.stop(true);
  });
});
