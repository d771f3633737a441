import { normalizeIssuer, oidcTrustMessages } from '../../../contract/oidc-trusts.js';
import { AppError } from '../../http/errors.js';

// The form of a trusted CI identity's issuer (issue 32 item 3). Where its name resolves to is checked apart, with
// DNS (oidc-issuer-address.ts), when the identity is registered and each time its keys are fetched.

/**
 * The issuer as stored and compared with a token's `iss`: an https URL (http only when OIDC_ALLOW_PRIVATE_ISSUERS
 * is on, for an issuer on the operator's network or a test's loopback), without credentials, query or fragment,
 * one trailing slash dropped. The keys are discovered under it (`/.well-known/openid-configuration`).
 */
export function parseIssuer(raw: string, options: { allowHttp: boolean }): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw issuerInvalid();
  }
  const isSchemeAllowed = url.protocol === 'https:' || (options.allowHttp && url.protocol === 'http:');
  const hasExtras = url.username || url.password || url.search || url.hash || raw.includes('?') || raw.includes('#');
  if (!isSchemeAllowed || hasExtras || url.hostname === '') throw issuerInvalid();
  return normalizeIssuer(url.href);
}

function issuerInvalid(): AppError {
  return new AppError('VALIDATION_FAILED', oidcTrustMessages.issuerInvalid);
}

/** The URL of the issuer's discovery document (OpenID Connect Discovery 1.0 §4). */
export function discoveryUrl(issuer: string): URL {
  return new URL(`${normalizeIssuer(issuer)}/.well-known/openid-configuration`);
}

/**
 * The keys' URL the discovery document names, when it lies on the issuer's origin: the issuer's owner controls
 * that origin, and a document pointing elsewhere could send the server to any address. GitHub Actions
 * (`/.well-known/jwks`) and GitLab (`/oauth/discovery/keys`) both publish on their issuer's origin.
 */
export function sameOriginKeysUrl(issuer: string, jwksUri: unknown): URL | undefined {
  if (typeof jwksUri !== 'string' || jwksUri.length > 2048) return undefined;
  try {
    const url = new URL(jwksUri);
    return url.origin === new URL(issuer).origin ? url : undefined;
  } catch {
    return undefined;
  }
}
