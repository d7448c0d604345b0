// Owned by helper H2 ("grant"), who writes the whole file (registerClient, resolveClient,
// DEFAULT_CLIENT_METADATA_URL). Only the types the credentials store needs are here, exactly as the
// round's contract gives them, so the store can be built and tested at the same time; on merge,
// H2's file replaces this one.

/** How the client proves itself at the token endpoint. */
export type ClientAuthMethod = "client_secret_basic" | "client_secret_post" | "none";

/** What an authorization server gave cat-code when it registered (RFC 7591), kept per issuer. */
export interface ClientRegistration {
  clientId: string;
  clientSecret?: string;
  authMethod: ClientAuthMethod;
  redirectUris: string[];
  issuer: string;
}
