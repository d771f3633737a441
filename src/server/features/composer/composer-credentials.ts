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
