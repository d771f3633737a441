import { createLocalJWKSet, type FlattenedJWSInput, type JSONWebKeySet, type JWSHeaderParameters } from 'jose';
import { createAddressResolver } from '../../adapters/http-delivery/public-address.js';
import type { AppContext } from '../../context.js';
import type { Clock } from '../../lib/clock.js';
import { SingleFlight } from '../../lib/single-flight.js';
import { fetchIssuerJson, type IssuerAccess, IssuerFetchError } from './oidc-http.js';
import { discoveryUrl, sameOriginKeysUrl } from './oidc-trust-rules.js';

// The signing keys of the issuers CI identities trust: discovered through the issuer's openid-configuration, held
// per issuer and per process, fetched again after an hour, or sooner when a token names a key id the held set
// lacks (the issuer rotated), at most once a minute per issuer so that made-up key ids cannot make the server
// hammer the issuer. Discovery and keys together take at most FETCH_BUDGET_MS and FETCH_MAX_BYTES each.

export const FETCH_BUDGET_MS = 3000;
export const FETCH_MAX_BYTES = 64 * 1024;
const KEYS_FRESH_MS = 60 * 60_000;
const UNKNOWN_KEY_REFRESH_MS = 60_000;
/** After a failed fetch, the same failure is answered this long without asking the issuer again. */
const FAILURE_HOLD_MS = 10_000;
// Only asymmetric keys: a JWKS's symmetric (`oct`) key would let anyone who read it sign.
const ASYMMETRIC_KEY_TYPES = new Set(['RSA', 'EC', 'OKP']);

type HeldKeys = {
  select: ReturnType<typeof createLocalJWKSet>;
  keyIds: Set<string>;
  fetchedAt: number;
};

/** The key jose should verify a token's signature with. */
export type KeyGetter = (header: JWSHeaderParameters, token: FlattenedJWSInput) => ReturnType<HeldKeys['select']>;

export class OidcKeyStore {
  private readonly held = new Map<string, HeldKeys>();
  private readonly failures = new Map<string, { error: IssuerFetchError; at: number }>();
  private readonly flights = new SingleFlight();

  constructor(
    private readonly access: IssuerAccess,
    private readonly clock: Clock,
  ) {}

  /** A key getter for tokens of `issuer` (already known to be trusted: never a token's unchecked `iss` alone). */
  keyGetter(issuer: string): KeyGetter {
    return async (header, token) => {
      const now = this.clock.now().getTime();
      let keys = this.held.get(issuer);
      if (!keys || now - keys.fetchedAt >= KEYS_FRESH_MS) {
        keys = await this.refresh(issuer);
      } else if (header.kid && !keys.keyIds.has(header.kid) && now - keys.fetchedAt >= UNKNOWN_KEY_REFRESH_MS) {
        keys = await this.refresh(issuer).catch(() => keys!);
      }
      return keys.select(header, token);
    };
  }

  private refresh(issuer: string): Promise<HeldKeys> {
    const failure = this.failures.get(issuer);
    if (failure && this.clock.now().getTime() - failure.at < FAILURE_HOLD_MS) return Promise.reject(failure.error);
    return this.flights.run(issuer, async () => {
      try {
        const keys = await this.fetchKeys(issuer);
        this.held.set(issuer, keys);
        this.failures.delete(issuer);
        return keys;
      } catch (error) {
        const known =
          error instanceof IssuerFetchError
            ? error
            : new IssuerFetchError('bad-answer', 'The issuer’s keys are unusable');
        this.failures.set(issuer, { error: known, at: this.clock.now().getTime() });
        throw known;
      }
    });
  }

  private async fetchKeys(issuer: string): Promise<HeldKeys> {
    const signal = AbortSignal.timeout(FETCH_BUDGET_MS);
    const options = { signal, maxBytes: FETCH_MAX_BYTES };
    const discovery = await fetchIssuerJson(discoveryUrl(issuer), this.access, options);
    const jwksUri = (discovery as { jwks_uri?: unknown } | null)?.jwks_uri;
    const keysUrl = sameOriginKeysUrl(issuer, jwksUri);
    if (!keysUrl) {
      throw new IssuerFetchError('bad-answer', `${issuer}'s openid-configuration names no jwks_uri on its own origin`);
    }
    const document = (await fetchIssuerJson(keysUrl, this.access, options)) as { keys?: unknown } | null;
    if (!document || !Array.isArray(document.keys)) {
      throw new IssuerFetchError('bad-answer', `${keysUrl.href} is not a JSON Web Key Set`);
    }
    const keys = document.keys.filter(
      (key): key is JSONWebKeySet['keys'][number] =>
        typeof key === 'object' && key !== null && ASYMMETRIC_KEY_TYPES.has((key as { kty?: string }).kty ?? ''),
    );
    return {
      select: createLocalJWKSet({ keys }),
      keyIds: new Set(keys.flatMap((key) => (typeof key.kid === 'string' ? [key.kid] : []))),
      fetchedAt: this.clock.now().getTime(),
    };
  }
}

// One store per running app (tests start several in one process), without a field on the shared AppContext.
const stores = new WeakMap<object, OidcKeyStore>();

export function issuerAccess(ctx: Pick<AppContext, 'config'>): IssuerAccess {
  return {
    resolver: createAddressResolver(ctx.config.dnsServers),
    allowPrivate: ctx.config.oidcAllowPrivateIssuers,
  };
}

export function oidcKeyStore(ctx: Pick<AppContext, 'config' | 'clock'>): OidcKeyStore {
  let store = stores.get(ctx);
  if (!store) {
    store = new OidcKeyStore(issuerAccess(ctx), ctx.clock);
    stores.set(ctx, store);
  }
  return store;
}
