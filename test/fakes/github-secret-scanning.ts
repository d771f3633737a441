import { generateKeyPairSync, type KeyObject, randomBytes, sign } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

// GitHub's secret scanning on loopback: it publishes its P-256 public keys as api.github.com/meta/public_keys/
// secret_scanning does ({public_keys: [{key_identifier, key, is_current}]}) and signs a report's exact bytes with the
// private key (ECDSA, SHA-256, DER, base64), as its partner program sends them.

export type FakeSecretScanning = {
  /** The keys URL (SECRET_SCANNING_KEYS_URL). */
  keysUrl: string;
  keyIdentifier: string;
  /** How many times the keys were fetched. */
  keyFetches: () => number;
  /** The headers GitHub sends with this body. */
  sign(body: string, options?: { withKey?: KeyObject; keyIdentifier?: string }): Record<string, string>;
  /** A P-256 key GitHub does not publish (a forger's). */
  strangerKey: KeyObject;
  close(): Promise<void>;
};

export async function startFakeSecretScanning(): Promise<FakeSecretScanning> {
  const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'prime256v1' });
  const strangerKey = generateKeyPairSync('ec', { namedCurve: 'prime256v1' }).privateKey;
  const keyIdentifier = randomBytes(32).toString('hex');
  let fetches = 0;
  const server = createServer((request, response) => {
    if (request.url !== '/meta/public_keys/secret_scanning') {
      response.writeHead(404).end();
      return;
    }
    fetches++;
    const pem = publicKey.export({ type: 'spki', format: 'pem' }).toString();
    response.writeHead(200, { 'content-type': 'application/json' });
    response.end(JSON.stringify({ public_keys: [{ key_identifier: keyIdentifier, key: pem, is_current: true }] }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    keysUrl: `http://127.0.0.1:${port}/meta/public_keys/secret_scanning`,
    keyIdentifier,
    keyFetches: () => fetches,
    strangerKey,
    sign(body, options = {}) {
      const signature = sign('sha256', Buffer.from(body), options.withKey ?? privateKey).toString('base64');
      return {
        'content-type': 'application/json',
        'github-public-key-identifier': options.keyIdentifier ?? keyIdentifier,
        'github-public-key-signature': signature,
      };
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
