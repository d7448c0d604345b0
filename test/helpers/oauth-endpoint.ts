import { afterEach, expect } from "bun:test";
import type { Server } from "bun";
import { AuthError } from "../../src/mcp/auth/auth-error.ts";
import type { AuthorizationServerMetadata } from "../../src/mcp/auth/authorization-server-metadata.ts";

/** One request an endpoint received, as the client sent it. */
export interface ReceivedRequest {
  method: string;
  path: string;
  headers: Headers;
  body: string;
  /** The body read as a form (empty for a JSON body). */
  form: URLSearchParams;
}

export interface OAuthEndpoint {
  /** `http://127.0.0.1:<port>` */
  origin: string;
  requests: ReceivedRequest[];
  /** Metadata whose every endpoint is on this server (`/token`, `/register`, `/revoke`, `/authorize`). */
  metadata(overrides?: Partial<AuthorizationServerMetadata>): AuthorizationServerMetadata;
}

/**
 * Real authorization server endpoints on 127.0.0.1 for the grant's tests: each test scripts the
 * answer and reads back exactly what the client sent. Stopped after each test.
 */
export function oauthEndpoints(): (answer: (request: ReceivedRequest) => Response | Promise<Response>) => OAuthEndpoint {
  const servers: Server<undefined>[] = [];
  afterEach(async () => {
    for (const server of servers.splice(0)) await server.stop(true);
  });
  return (answer) => {
    const requests: ReceivedRequest[] = [];
    const server = Bun.serve({
      hostname: "127.0.0.1",
      port: 0,
      fetch: async (request) => {
        const body = await request.text();
        const url = new URL(request.url);
        const received: ReceivedRequest = {
          method: request.method,
          path: `${url.pathname}${url.search}`,
          headers: request.headers,
          body,
          form: request.headers.get("content-type")?.startsWith("application/x-www-form-urlencoded") ? new URLSearchParams(body) : new URLSearchParams(),
        };
        requests.push(received);
        return answer(received);
      },
    });
    servers.push(server);
    const origin = `http://127.0.0.1:${server.port}`;
    return {
      origin,
      requests,
      metadata: (overrides = {}) => ({
        issuer: origin,
        authorizationEndpoint: `${origin}/authorize`,
        tokenEndpoint: `${origin}/token`,
        registrationEndpoint: `${origin}/register`,
        revocationEndpoint: `${origin}/revoke`,
        clientIdMetadataDocumentSupported: false,
        issParameterSupported: false,
        fallback: false,
        ...overrides,
      }),
    };
  };
}

/** The AuthError a promise rejects with; fulfilling, or rejecting with anything else, fails the test. */
export async function authFailure(promise: Promise<unknown>): Promise<AuthError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(AuthError);
  return error as AuthError;
}

/** A metadata object for units that send nothing (the authorization URL, the choice of method). */
export function offlineMetadata(overrides: Partial<AuthorizationServerMetadata> = {}): AuthorizationServerMetadata {
  return {
    issuer: "https://as.example.com",
    authorizationEndpoint: "https://as.example.com/authorize",
    tokenEndpoint: "https://as.example.com/token",
    clientIdMetadataDocumentSupported: false,
    issParameterSupported: false,
    fallback: false,
    ...overrides,
  };
}
