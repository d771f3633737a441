import { isApiRequestError } from '../api-error';
import {
  OTHER_ERROR_MAX_RETRIES,
  RATE_LIMIT_MAX_RETRIES,
  RATE_LIMIT_RETRY_DEFAULT_MS,
  RETRY_DELAY_CAP_MS,
} from '../constants';

const statusOf = (error: unknown) => (isApiRequestError(error) ? error.status : undefined);

/**
 * Retry rule of the subscription status query (spec seller-app §7): never on 401, 403 or 404; up to 3
 * times when rate limited; up to 2 times otherwise. `failureCount` counts earlier retries (0 on the first).
 */
export function shouldRetryStatusQuery(failureCount: number, error: unknown): boolean {
  const status = statusOf(error);
  if (status === 401 || status === 403 || status === 404) return false;
  if (status === 429) return failureCount < RATE_LIMIT_MAX_RETRIES;
  return failureCount < OTHER_ERROR_MAX_RETRIES;
}

/** After a 429 wait what Retry-After says (30 s without it); otherwise back off exponentially; at most 30 s. */
export function statusQueryRetryDelay(failureCount: number, error: unknown): number {
  if (statusOf(error) === 429) {
    const wait = isApiRequestError(error) ? error.retryAfterMs : undefined;
    return Math.min(wait ?? RATE_LIMIT_RETRY_DEFAULT_MS, RETRY_DELAY_CAP_MS);
  }
  return Math.min(1000 * 2 ** failureCount, RETRY_DELAY_CAP_MS);
}
