import { randomInt } from 'node:crypto';
import { crc32 } from 'node:zlib';

// The shape of a license holder's Composer token (issue 32): `pgc_` + 30 random base62 characters + a 6-character
// checksum, the CRC32 of everything before it in base62, as GitHub's tokens carry one. A secret scanner (ours or
// GitHub's) can tell a real token from a look-alike without asking us, and a typo fails before any lookup.
// zlib.crc32 is Node's own (from 20.15; package.json asks for 20.19), so no package is needed for it.

export const HOLDER_TOKEN_PREFIX = 'pgc_';
const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const RANDOM_LENGTH = 30;
const CHECKSUM_LENGTH = 6;
/** Every new token is exactly this long: `pgc_` + 30 + 6. */
export const HOLDER_TOKEN_LENGTH = HOLDER_TOKEN_PREFIX.length + RANDOM_LENGTH + CHECKSUM_LENGTH;

/** A number in base62, left-padded with `0` to `width` (a CRC32 needs at most 6 digits). */
export function toBase62(value: number, width: number): string {
  let rest = value;
  let digits = '';
  while (rest > 0) {
    digits = BASE62[rest % 62] + digits;
    rest = Math.floor(rest / 62);
  }
  return digits.padStart(width, '0');
}

/** The 6-character checksum of a token's body (`pgc_` + the random part). */
export function holderTokenChecksum(body: string): string {
  return toBase62(crc32(body), CHECKSUM_LENGTH);
}

/** A new token: 30 characters drawn uniformly from base62 (about 178 bits), then its checksum. */
export function generateHolderToken(): string {
  let random = '';
  for (let index = 0; index < RANDOM_LENGTH; index++) random += BASE62[randomInt(62)];
  const body = HOLDER_TOKEN_PREFIX + random;
  return body + holderTokenChecksum(body);
}

function isBase62(text: string): boolean {
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    const isDigit = code >= 48 && code <= 57;
    const isUpper = code >= 65 && code <= 90;
    const isLower = code >= 97 && code <= 122;
    if (!isDigit && !isUpper && !isLower) return false;
  }
  return true;
}

/**
 * True for a string shaped like a token of the current format whose checksum matches: what a scanner reports is
 * checked with this before the database is asked. Older tokens (`pgc_` + base64url, issued before the checksum)
 * answer false here although they still open Composer.
 */
export function isWellFormedHolderToken(candidate: string): boolean {
  if (candidate.length !== HOLDER_TOKEN_LENGTH || !candidate.startsWith(HOLDER_TOKEN_PREFIX)) return false;
  const body = candidate.slice(0, HOLDER_TOKEN_LENGTH - CHECKSUM_LENGTH);
  const checksum = candidate.slice(HOLDER_TOKEN_LENGTH - CHECKSUM_LENGTH);
  if (!isBase62(candidate.slice(HOLDER_TOKEN_PREFIX.length))) return false;
  return holderTokenChecksum(body) === checksum;
}

/** The last four characters, shown on screens to tell tokens apart; never enough to use one. */
export function holderTokenHint(token: string): string {
  return token.slice(-4);
}
