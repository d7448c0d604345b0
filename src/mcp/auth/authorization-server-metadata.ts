// Helper H1 ("discovery") owns this file: this copy holds only the interface the grant's units
// are written against, as the round's contract gives it; the merge takes H1's version.

export interface AuthorizationServerMetadata {
  issuer: string;
  authorizationEndpoint: string;
  tokenEndpoint: string;
  registrationEndpoint?: string;
  revocationEndpoint?: string;
  scopesSupported?: string[];
  tokenEndpointAuthMethodsSupported?: string[]; // absent: RFC 8414 default client_secret_basic
  codeChallengeMethodsSupported?: string[];
  grantTypesSupported?: string[];
  clientIdMetadataDocumentSupported: boolean;
  /** RFC 9207 `authorization_response_iss_parameter_supported`. */
  issParameterSupported: boolean;
  /** True when no metadata was found and the 2025-03-26 defaults (<origin>/authorize, /token, /register) are used. */
  fallback: boolean;
}
