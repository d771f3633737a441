import { generateKeyPairSync, randomBytes } from 'node:crypto';

// A package's SSH deploy key (issue 30 item 4): ed25519 from node:crypto, written in the formats ssh reads, the
// public half as an authorized_keys line (what the seller adds to the git server, read-only) and the private half
// in OpenSSH's own `openssh-key-v1` format, unencrypted (it is sealed with SECRET_KEY before it is stored).

export type DeployKey = { publicKey: string; privateKey: string };

function sshString(value: Buffer | string): Buffer {
  const bytes = typeof value === 'string' ? Buffer.from(value, 'utf8') : value;
  const length = Buffer.alloc(4);
  length.writeUInt32BE(bytes.length, 0);
  return Buffer.concat([length, bytes]);
}

function uint32(value: number): Buffer {
  const bytes = Buffer.alloc(4);
  bytes.writeUInt32BE(value, 0);
  return bytes;
}

/** A new key pair; `comment` ends the public line (e.g. `packgate acme/widget`). */
export function generateDeployKey(comment: string): DeployKey {
  const { publicKey, privateKey } = generateKeyPairSync('ed25519');
  const publicRaw = Buffer.from(publicKey.export({ format: 'jwk' }).x!, 'base64url');
  const seed = Buffer.from(privateKey.export({ format: 'jwk' }).d!, 'base64url');
  const keyType = 'ssh-ed25519';
  const publicBlob = Buffer.concat([sshString(keyType), sshString(publicRaw)]);
  const safeComment = comment.replace(/[\r\n]/g, ' ').slice(0, 200);

  // PROTOCOL.key: check integers, the key, the comment, then padding 1, 2, 3… to the cipher's block size (8 for none).
  const check = randomBytes(4);
  let section = Buffer.concat([
    check,
    check,
    sshString(keyType),
    sshString(publicRaw),
    sshString(Buffer.concat([seed, publicRaw])),
    sshString(safeComment),
  ]);
  const padding = Buffer.from(Array.from({ length: (8 - (section.length % 8)) % 8 }, (_, index) => index + 1));
  section = Buffer.concat([section, padding]);
  const body = Buffer.concat([
    Buffer.from('openssh-key-v1\0', 'latin1'),
    sshString('none'),
    sshString('none'),
    sshString(''),
    uint32(1),
    sshString(publicBlob),
    sshString(section),
  ]);
  const lines = body.toString('base64').match(/.{1,70}/g) ?? [];
  return {
    publicKey: `${keyType} ${publicBlob.toString('base64')} ${safeComment}`.trim(),
    privateKey: `-----BEGIN OPENSSH PRIVATE KEY-----\n${lines.join('\n')}\n-----END OPENSSH PRIVATE KEY-----\n`,
  };
}
