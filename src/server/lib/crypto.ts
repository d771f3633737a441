import {
  createCipheriv,
  createDecipheriv,
  createHash,
  createHmac,
  hash,
  randomBytes,
  timingSafeEqual,
} from 'node:crypto';

/** A random secret of 192 bits with a recognisable prefix, e.g. `pgml_...` for magic links. */
export function generateToken(prefix: string): string {
  return `${prefix}_${randomBytes(24).toString('base64url')}`;
}

/** One-shot (no Hash object): every warm Composer request hashes its token, and this costs less than half as much. */
export function sha256Hex(value: string): string {
  return hash('sha256', value, 'hex');
}

export function hmacHex(key: string, value: string): string {
  return createHmac('sha256', key).update(value).digest('hex');
}

export function safeEqual(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}

/**
 * A value as JSON signed with the server's key for one purpose (`<base64url JSON>.<HMAC>`): anyone holding it can read
 * it, only this server can make one that openSignedJson accepts. For state handed through a browser or GitHub and back.
 */
export function signJson(secretKey: string, purpose: string, value: unknown): string {
  const body = Buffer.from(JSON.stringify(value)).toString('base64url');
  return `${body}.${hmacHex(secretKey, `${purpose}:${body}`)}`;
}

/** The value signJson signed for this purpose, or undefined for anything else (forged, altered, another purpose). */
export function openSignedJson(secretKey: string, purpose: string, signed: string): unknown {
  const separator = signed.lastIndexOf('.');
  if (separator <= 0) return undefined;
  const body = signed.slice(0, separator);
  if (!safeEqual(signed.slice(separator + 1), hmacHex(secretKey, `${purpose}:${body}`))) return undefined;
  try {
    return JSON.parse(Buffer.from(body, 'base64url').toString('utf8'));
  } catch {
    return undefined;
  }
}

function deriveKey(secretKey: string, purpose: string): Buffer {
  return createHash('sha256').update(`${purpose}:${secretKey}`).digest();
}

/** AES-256-GCM; output is `v1.iv.tag.ciphertext` in base64url so it fits a text column. */
export function encryptSecret(secretKey: string, plaintext: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', deriveKey(secretKey, 'encryption'), iv);
  const ciphertext = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
  return ['v1', iv, cipher.getAuthTag(), ciphertext]
    .map((part) => (typeof part === 'string' ? part : part.toString('base64url')))
    .join('.');
}

export function decryptSecret(secretKey: string, sealed: string): string {
  const [version, iv, tag, ciphertext] = sealed.split('.');
  if (version !== 'v1' || !iv || !tag || ciphertext === undefined) throw new Error('Unrecognised encrypted value');
  const decipher = createDecipheriv('aes-256-gcm', deriveKey(secretKey, 'encryption'), Buffer.from(iv, 'base64url'));
  decipher.setAuthTag(Buffer.from(tag, 'base64url'));
  return Buffer.concat([decipher.update(Buffer.from(ciphertext, 'base64url')), decipher.final()]).toString('utf8');
}
