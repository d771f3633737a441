import { LRUCache } from 'lru-cache';
import { sha256Hex } from '../../lib/crypto.js';

// The credential Composer sends. `composer config bearer.{host} {token}` sends `Authorization: Bearer {token}`;
// `http-basic.{host}` sends the token as the password with any username. A token pasted as the username with an
// empty password is accepted as well: it is the same secret, and the mistake is common.

/** Longer than any token we issue by far; anything bigger is not worth hashing. */
const MAX_TOKEN_LENGTH = 256;

/** The token in an Authorization header, or undefined when there is none or it cannot be one of ours. */
export function tokenFromAuthorization(header: string | undefined): string | undefined {
  if (!header) return undefined;
  const separator = header.indexOf(' ');
  if (separator === -1) return undefined;
  const scheme = header.slice(0, separator).toLowerCase();
  const value = header.slice(separator + 1).trim();
  let token: string | undefined;
  if (scheme === 'bearer') {
    token = value;
  } else if (scheme === 'basic') {
    const decoded = Buffer.from(value, 'base64').toString('utf8');
    const colon = decoded.indexOf(':');
    if (colon === -1) return undefined;
    const username = decoded.slice(0, colon);
    const password = decoded.slice(colon + 1);
    token = password !== '' ? password : username;
  }
  if (!token || token.length > MAX_TOKEN_LENGTH) return undefined;
  return token;
}

/** A credential as the warm door uses it: the token and its SHA-256, the key of its held view. */
export type ParsedCredential = { token: string; tokenHash: string };

/**
 * An Authorization header no longer than this is remembered; a longer one is read at each request. Basic carries the
 * token in base64 beside a user name, so twice the longest token and some room for the name.
 */
const MAX_REMEMBERED_HEADER_LENGTH = 640;

/** Rough bytes of one remembered credential: the header and the token as UTF-16, the hex hash, the entry itself. */
const credentialBytes = (authorization: string, credential: ParsedCredential) =>
  2 * (authorization.length + credential.token.length + credential.tokenHash.length) + 200;

/**
 * The warm door's reading of an Authorization header, remembered per header (issue 34): reading a credential costs
 * its parse and a SHA-256, the same every time the same client asks, at tens of thousands of requests a second.
 * Only the reading is remembered, never a verdict: whether the token works (revoked, expired, frozen, over a limit)
 * is decided at each request from the view its hash names. Bounded by count and by bytes, least recently used
 * first out.
 */
export function createCredentialReader(bounds: { maxEntries: number; maxBytes: number }) {
  const remembered = new LRUCache<string, ParsedCredential>({
    max: bounds.maxEntries,
    maxSize: bounds.maxBytes,
    sizeCalculation: (credential, authorization) => credentialBytes(authorization, credential),
  });
  /**
   * Each connection's last header and its reading. Composer sends the same header on every request of a connection,
   * and comparing two strings costs less than hashing the new one for the lookup (0.2 µs a request, issue 34).
   */
  const lastOnConnection = new WeakMap<object, { authorization: string; credential: ParsedCredential }>();
  const read = (authorization: string | undefined): ParsedCredential | undefined => {
    if (!authorization) return undefined;
    const held = remembered.get(authorization);
    if (held) return held;
    const token = tokenFromAuthorization(authorization);
    if (!token) return undefined;
    const credential = { token, tokenHash: sha256Hex(token) };
    if (authorization.length <= MAX_REMEMBERED_HEADER_LENGTH) remembered.set(authorization, credential);
    return credential;
  };
  return {
    /** The token and its hash in an Authorization header, or undefined when it holds none of ours. */
    read,
    /**
     * read, for a request on `connection` (its socket): the connection's last reading when the header is the same as
     * its last request's, else read anew.
     */
    readOn(connection: object, authorization: string | undefined): ParsedCredential | undefined {
      const last = lastOnConnection.get(connection);
      if (last !== undefined && last.authorization === authorization) return last.credential;
      const credential = read(authorization);
      // The same bound as the reader's own: a longer header is read at each request, on any connection.
      if (credential && authorization && authorization.length <= MAX_REMEMBERED_HEADER_LENGTH) {
        lastOnConnection.set(connection, { authorization, credential });
      }
      return credential;
    },
    get size() {
      return remembered.size;
    },
    get heldBytes() {
      return remembered.calculatedSize;
    },
  };
}

export type CredentialReader = ReturnType<typeof createCredentialReader>;
