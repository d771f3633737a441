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
