import { decodeJwt, decodeProtectedHeader, errors, type JWTPayload, jwtVerify } from 'jose';
import { AppError } from '../../http/errors.js';
import { IssuerFetchError } from './oidc-http.js';
import type { KeyGetter } from './oidc-keys.js';

// A CI job's OIDC token (a JWT), read and verified with jose (issue 32 item 3). Signed with the issuer's published
// asymmetric keys only: `none` and the HMAC algorithms (HS*) are refused before any key is looked at, so a token
// "signed" with the issuer's public key as an HMAC secret gets nowhere; a key of the wrong type for the algorithm
// matches nothing in the issuer's set. Messages say what is wrong and never repeat the token.

export const ACCEPTED_ALGORITHMS = [
  'RS256',
  'RS384',
  'RS512',
  'PS256',
  'PS384',
  'PS512',
  'ES256',
  'ES384',
  'ES512',
  'EdDSA',
];
/** Clocks of CI runners and of this server may disagree this much on `exp` and `nbf`. */
export const CLOCK_TOLERANCE_SECONDS = 30;

/** What the exchange reads of a token before trusting it: enough to find the trusts that might accept it. */
export type UnverifiedJobToken = { issuer: string };

/** Claims of a verified token the exchange relies on. */
export type VerifiedJobToken = { issuer: string; audiences: string[]; subject: string; jti?: string; exp: number };

function refused(message: string, suggestion?: string): AppError {
  return new AppError('UNAUTHENTICATED', message, suggestion ? { suggestion } : {});
}

/** A claim from the token, cut short: it is the caller's text and goes into a message. */
export function shown(value: string): string {
  return value.length > 200 ? `${value.slice(0, 200)}…` : value;
}

/** Reads the issuer of a token without verifying it; refuses what is not a signed JWT at all. */
export function readUnverified(token: string): UnverifiedJobToken {
  let algorithm: unknown;
  let issuer: unknown;
  try {
    algorithm = decodeProtectedHeader(token).alg;
    issuer = decodeJwt(token).iss;
  } catch {
    throw refused('The token is not a JWT: send the OIDC token your CI job received, as {"token": "<JWT>"}.');
  }
  if (typeof algorithm !== 'string' || !ACCEPTED_ALGORITHMS.includes(algorithm)) {
    throw refused(
      `Tokens signed with ${typeof algorithm === 'string' ? shown(algorithm) : 'no algorithm'} are not accepted: ` +
        'a CI job token must be signed with its issuer’s published keys (RS*, PS*, ES* or EdDSA).',
    );
  }
  if (typeof issuer !== 'string' || issuer === '') throw refused('The token names no issuer (iss).');
  return { issuer };
}

function audiencesOf(payload: JWTPayload): string[] {
  if (typeof payload.aud === 'string') return [payload.aud];
  return Array.isArray(payload.aud) ? payload.aud.filter((entry) => typeof entry === 'string') : [];
}

/** Verifies signature, `iss`, `exp` and `nbf`; the audience and subject rules are the caller's (they need the trusts). */
export async function verifyJobToken(
  token: string,
  issuer: string,
  keys: KeyGetter,
  now: Date,
): Promise<VerifiedJobToken> {
  let payload: JWTPayload;
  try {
    ({ payload } = await jwtVerify(token, keys, {
      algorithms: ACCEPTED_ALGORITHMS,
      issuer: [issuer, `${issuer}/`],
      clockTolerance: CLOCK_TOLERANCE_SECONDS,
      currentDate: now,
      requiredClaims: ['exp', 'sub', 'aud'],
    }));
  } catch (error) {
    throw verificationRefusal(error, issuer);
  }
  return {
    issuer,
    audiences: audiencesOf(payload),
    subject: String(payload.sub),
    ...(typeof payload.jti === 'string' ? { jti: payload.jti } : {}),
    exp: Number(payload.exp),
  };
}

function verificationRefusal(error: unknown, issuer: string): AppError {
  if (error instanceof IssuerFetchError) {
    return refused(`The keys of ${issuer} could not be fetched: ${error.message}.`, 'Try again in a minute.');
  }
  if (error instanceof errors.JWTExpired) {
    return refused('The token has expired: request a new one in the CI job right before the exchange.');
  }
  if (error instanceof errors.JWTClaimValidationFailed) {
    if (error.claim === 'nbf') return refused('The token is not valid yet (nbf is in the future).');
    return refused(`The token's ${error.claim} claim is missing or invalid.`);
  }
  if (error instanceof errors.JWKSNoMatchingKey || error instanceof errors.JWKSMultipleMatchingKeys) {
    return refused(`No key published by ${issuer} matches the token's key id and algorithm.`);
  }
  if (error instanceof errors.JWSSignatureVerificationFailed) {
    return refused(`The token's signature does not verify against the keys published by ${issuer}.`);
  }
  if (error instanceof errors.JOSEAlgNotAllowed) return refused('The token is signed with an algorithm not accepted.');
  if (error instanceof errors.JOSEError) return refused('The token is not a valid signed JWT.');
  throw error;
}
