import { createHmac, randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, exportSPKI, generateKeyPair, type JWK, type JWTPayload, SignJWT } from 'jose';

// A CI system's OIDC issuer on loopback, shaped as GitHub Actions' and GitLab's are (OpenID Connect Discovery 1.0:
// `/.well-known/openid-configuration` naming `jwks_uri`, the keys as a JSON Web Key Set): it signs job tokens with
// the claims a test chooses, rotates its key, and can answer its keys slowly, hugely or not at all. It also plays
// GitHub's token request endpoint (ACTIONS_ID_TOKEN_REQUEST_URL), so a workflow's script can run as written.

export type IssuerAlgorithm = 'RS256' | 'ES256';
export type KeysMode = 'normal' | 'slow' | 'huge';

type SigningKey = { kid: string; alg: IssuerAlgorithm; privateKey: CryptoKey; publicJwk: JWK; publicPem: string };

export type FakeOidcIssuer = {
  /** `http://127.0.0.1:{port}`: the `iss` of its tokens. */
  issuer: string;
  /** How its keys are answered: normal, after 10 seconds (`slow`), or as 1 MB of keys (`huge`). */
  keysMode: KeysMode;
  /** Requests per path (`/.well-known/jwks`, ...). */
  requests: Map<string, number>;
  /** The claims GitHub's token request endpoint signs (its `audience` query parameter becomes `aud`). */
  requestClaims: JWTPayload;
  /** The bearer token GitHub's token request endpoint wants (ACTIONS_ID_TOKEN_REQUEST_TOKEN). */
  requestToken: string;
  /** The time GitHub's token request endpoint signs at (a test's app clock). */
  requestNow: () => Date;
  /** A job token: `iss` is the issuer, `iat` and `exp` (5 minutes later) from `now`, a fresh `jti`; claims override. */
  sign(claims: JWTPayload, options?: { now?: Date; kid?: string }): Promise<string>;
  /** An unsigned token (`alg: none`) with these claims. */
  signNone(claims: JWTPayload, now?: Date): string;
  /** The classic confusion: HS256 with the issuer's public key (PEM) as the HMAC secret. */
  signHmacWithPublicKey(claims: JWTPayload, now?: Date): string;
  /** The key id of the key it signs with now. */
  keyId(): string;
  /** A new signing key with a new key id; the old one is no longer published. */
  rotate(): Promise<void>;
  close(): Promise<void>;
};

async function createSigningKey(alg: IssuerAlgorithm): Promise<SigningKey> {
  const { privateKey, publicKey } = await generateKeyPair(alg, { extractable: true });
  const kid = randomUUID();
  return {
    kid,
    alg,
    privateKey,
    publicJwk: { ...(await exportJWK(publicKey)), kid, alg, use: 'sig' },
    publicPem: await exportSPKI(publicKey),
  };
}

const base64url = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

function withTimes(issuer: string, claims: JWTPayload, now: Date): JWTPayload {
  const iat = Math.floor(now.getTime() / 1000);
  return { iss: issuer, iat, nbf: iat, exp: iat + 300, jti: randomUUID(), ...claims };
}

export async function startFakeOidcIssuer(options: { algorithm?: IssuerAlgorithm } = {}): Promise<FakeOidcIssuer> {
  const algorithm = options.algorithm ?? 'RS256';
  let key = await createSigningKey(algorithm);
  const sockets = new Set<import('node:net').Socket>();

  const fake: FakeOidcIssuer = {
    issuer: '',
    keysMode: 'normal',
    requests: new Map(),
    requestClaims: {},
    requestToken: `request-${randomUUID()}`,
    requestNow: () => new Date(),
    async sign(claims, signOptions = {}) {
      const payload = withTimes(fake.issuer, claims, signOptions.now ?? new Date());
      return new SignJWT(payload)
        .setProtectedHeader({ alg: key.alg, kid: signOptions.kid ?? key.kid, typ: 'JWT' })
        .sign(key.privateKey);
    },
    signNone(claims, now = new Date()) {
      return `${base64url({ alg: 'none', typ: 'JWT' })}.${base64url(withTimes(fake.issuer, claims, now))}.`;
    },
    signHmacWithPublicKey(claims, now = new Date()) {
      const signed = `${base64url({ alg: 'HS256', kid: key.kid, typ: 'JWT' })}.${base64url(withTimes(fake.issuer, claims, now))}`;
      return `${signed}.${createHmac('sha256', key.publicPem).update(signed).digest('base64url')}`;
    },
    keyId: () => key.kid,
    async rotate() {
      key = await createSigningKey(algorithm);
    },
    async close() {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };

  const json = (response: ServerResponse, body: unknown) => {
    response.writeHead(200, { 'content-type': 'application/json' });
    response.end(JSON.stringify(body));
  };

  async function answer(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const url = new URL(request.url ?? '/', fake.issuer);
    fake.requests.set(url.pathname, (fake.requests.get(url.pathname) ?? 0) + 1);
    if (url.pathname === '/.well-known/openid-configuration') {
      return json(response, { issuer: fake.issuer, jwks_uri: `${fake.issuer}/.well-known/jwks` });
    }
    if (url.pathname === '/.well-known/jwks') {
      if (fake.keysMode === 'slow') {
        setTimeout(() => json(response, { keys: [key.publicJwk] }), 10_000).unref();
        return;
      }
      if (fake.keysMode === 'huge') {
        const filler = Array.from({ length: 4000 }, (_, index) => ({ ...key.publicJwk, kid: `filler-${index}` }));
        return json(response, { keys: [...filler, key.publicJwk] });
      }
      return json(response, { keys: [key.publicJwk] });
    }
    if (url.pathname === '/github/token') {
      if (request.headers.authorization !== `bearer ${fake.requestToken}`) {
        response.writeHead(401).end();
        return;
      }
      const audience = url.searchParams.get('audience') ?? fake.issuer;
      return json(response, {
        value: await fake.sign({ ...fake.requestClaims, aud: audience }, { now: fake.requestNow() }),
      });
    }
    response.writeHead(404).end();
  }

  const server = createServer((request, response) => {
    answer(request, response).catch(() => response.writeHead(500).end());
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  fake.issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return fake;
}
