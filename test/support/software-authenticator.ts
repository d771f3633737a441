import { createHash, generateKeyPairSync, type KeyObject, randomBytes, sign } from 'node:crypto';

// A software WebAuthn authenticator for server tests (issue 33): an ES256 key pair from node:crypto per credential,
// attestation 'none' encoded in CBOR by the few lines below, and assertions signed as an authenticator signs them.
// The server verifies its answers with @simplewebauthn/server exactly as it verifies a browser's.

type Cbor = number | string | Uint8Array | CborMap | CborRecord;
interface CborMap extends Map<number | string, Cbor> {}
interface CborRecord {
  [key: string]: Cbor;
}

function head(major: number, length: number): Buffer {
  if (length < 24) return Buffer.from([(major << 5) | length]);
  if (length < 256) return Buffer.from([(major << 5) | 24, length]);
  const buffer = Buffer.alloc(3);
  buffer[0] = (major << 5) | 25;
  buffer.writeUInt16BE(length, 1);
  return buffer;
}

export function cbor(value: Cbor): Buffer {
  if (typeof value === 'number') return value >= 0 ? head(0, value) : head(1, -1 - value);
  if (typeof value === 'string') {
    const bytes = Buffer.from(value, 'utf8');
    return Buffer.concat([head(3, bytes.length), bytes]);
  }
  if (value instanceof Uint8Array) return Buffer.concat([head(2, value.length), Buffer.from(value)]);
  const entries = value instanceof Map ? [...value] : Object.entries(value);
  return Buffer.concat([head(5, entries.length), ...entries.flatMap(([key, item]) => [cbor(key), cbor(item)])]);
}

const b64url = (bytes: Uint8Array | string) => Buffer.from(bytes).toString('base64url');

export type SoftwareCredential = { id: Buffer; privateKey: KeyObject; publicKey: KeyObject; counter: number };

export class SoftwareAuthenticator {
  readonly credentials: SoftwareCredential[] = [];
  /** The user handle each credential was created for, as a discoverable credential keeps it. */
  private readonly handles = new Map<string, string>();

  constructor(
    private readonly rpId: string,
    private readonly origin: string,
  ) {}

  private authData(flags: number, counter: number, attested?: Buffer): Buffer {
    const counterBytes = Buffer.alloc(4);
    counterBytes.writeUInt32BE(counter);
    const rpIdHash = createHash('sha256').update(this.rpId).digest();
    return Buffer.concat([rpIdHash, Buffer.from([flags]), counterBytes, ...(attested ? [attested] : [])]);
  }

  private clientData(type: string, challenge: string, origin: string): Buffer {
    return Buffer.from(JSON.stringify({ type, challenge, origin, crossOrigin: false }));
  }

  /** Answers creation options (as the server sent them) with a new credential; `origin` overrides the page's. */
  register(options: { challenge: string; user: { id: string } }, overrides: { origin?: string } = {}) {
    const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    const jwk = publicKey.export({ format: 'jwk' });
    const id = randomBytes(16);
    const credential = { id, privateKey, publicKey, counter: 0 };
    this.credentials.push(credential);
    this.handles.set(b64url(id), options.user.id);
    const coseKey = new Map<number, Cbor>([
      [1, 2],
      [3, -7],
      [-1, 1],
      [-2, Buffer.from(jwk.x!, 'base64url')],
      [-3, Buffer.from(jwk.y!, 'base64url')],
    ]);
    const idLength = Buffer.alloc(2);
    idLength.writeUInt16BE(id.length);
    const attested = Buffer.concat([Buffer.alloc(16), idLength, id, cbor(coseKey)]);
    const authData = this.authData(0x45, 0, attested);
    const attestationObject = cbor({ fmt: 'none', attStmt: {}, authData });
    return {
      id: b64url(id),
      rawId: b64url(id),
      type: 'public-key' as const,
      response: {
        clientDataJSON: b64url(this.clientData('webauthn.create', options.challenge, overrides.origin ?? this.origin)),
        attestationObject: b64url(attestationObject),
        transports: ['internal'],
      },
      clientExtensionResults: {},
      authenticatorAttachment: 'platform',
    };
  }

  /** Signs request options with `credential` (the first one unless given). */
  authenticate(
    options: { challenge: string },
    overrides: { credential?: SoftwareCredential; origin?: string; userHandle?: string } = {},
  ) {
    const credential = overrides.credential ?? this.credentials[0];
    if (!credential) throw new Error('The software authenticator has no credential');
    credential.counter += 1;
    const authData = this.authData(0x05, credential.counter);
    const clientData = this.clientData('webauthn.get', options.challenge, overrides.origin ?? this.origin);
    const signed = Buffer.concat([authData, createHash('sha256').update(clientData).digest()]);
    const signature = sign('sha256', signed, credential.privateKey);
    return {
      id: b64url(credential.id),
      rawId: b64url(credential.id),
      type: 'public-key' as const,
      response: {
        clientDataJSON: b64url(clientData),
        authenticatorData: b64url(authData),
        signature: b64url(signature),
        userHandle: overrides.userHandle ?? this.handles.get(b64url(credential.id)),
      },
      clientExtensionResults: {},
    };
  }
}
