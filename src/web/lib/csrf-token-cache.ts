import { CSRF_TOKEN_LIFETIME_MS, CSRF_TOKEN_REFRESH_MARGIN_MS } from './constants';

export type CsrfTokenCache = {
  /** The cached token, fetched when absent or close to expiry; undefined when the fetch failed. */
  get(): Promise<string | undefined>;
  /** Forgets the token (after the server refused it, or at logout). */
  invalidate(): void;
};

export type CsrfTokenCacheOptions = {
  fetchToken: () => Promise<string>;
  now?: () => number;
  log?: (message: string, error: unknown) => void;
  lifetimeMs?: number;
  refreshMarginMs?: number;
};

/**
 * Keeps the CSRF token for 1.5 h and fetches a new one when less than 5 min remain (spec seller-app §7).
 * A failed fetch is only logged: the request then goes without the token and the server decides.
 */
export function createCsrfTokenCache({
  fetchToken,
  now = Date.now,
  log = (message, error) => console.warn(message, error),
  lifetimeMs = CSRF_TOKEN_LIFETIME_MS,
  refreshMarginMs = CSRF_TOKEN_REFRESH_MARGIN_MS,
}: CsrfTokenCacheOptions): CsrfTokenCache {
  let cached: { token: string; expiresAt: number } | undefined;
  let inFlight: Promise<string | undefined> | undefined;
  // Bumped by invalidate() so that a fetch started before it cannot refill the cache with a stale token.
  let generation = 0;

  const refresh = (): Promise<string | undefined> => {
    const startedIn = generation;
    const request = fetchToken()
      .then((token) => {
        if (startedIn === generation) cached = { token, expiresAt: now() + lifetimeMs };
        return token;
      })
      .catch((error: unknown) => {
        log('Could not fetch a CSRF token; sending the request without it.', error);
        return undefined;
      })
      .finally(() => {
        if (inFlight === request) inFlight = undefined;
      });
    inFlight = request;
    return request;
  };

  return {
    get() {
      if (cached && cached.expiresAt - now() >= refreshMarginMs) return Promise.resolve(cached.token);
      return inFlight ?? refresh();
    },
    invalidate() {
      cached = undefined;
      inFlight = undefined;
      generation += 1;
    },
  };
}
