import { describe, expect, it, vi } from 'vitest';
import { createCsrfTokenCache } from './csrf-token-cache';

const MINUTE = 60_000;

function setup(fetchToken = vi.fn(async () => `token-${fetchToken.mock.calls.length}`)) {
  let time = 0;
  const log = vi.fn();
  const cache = createCsrfTokenCache({ fetchToken, now: () => time, log });
  return { cache, fetchToken, log, advance: (ms: number) => (time += ms) };
}

describe('CSRF token cache', () => {
  it('fetches once and serves the cached token for 1.5 hours minus the 5-minute margin', async () => {
    const { cache, fetchToken, advance } = setup();
    expect(await cache.get()).toBe('token-1');
    advance(84 * MINUTE);
    expect(await cache.get()).toBe('token-1');
    expect(fetchToken).toHaveBeenCalledTimes(1);
  });

  it('fetches a new token when less than 5 minutes remain', async () => {
    const { cache, fetchToken, advance } = setup();
    await cache.get();
    advance(85 * MINUTE + 1);
    expect(await cache.get()).toBe('token-2');
    expect(fetchToken).toHaveBeenCalledTimes(2);
  });

  it('shares one fetch between concurrent callers', async () => {
    const { cache, fetchToken } = setup();
    const [a, b] = await Promise.all([cache.get(), cache.get()]);
    expect(a).toBe('token-1');
    expect(b).toBe('token-1');
    expect(fetchToken).toHaveBeenCalledTimes(1);
  });

  it('answers undefined and only logs when the fetch fails, then tries again next time', async () => {
    const fetchToken = vi.fn().mockRejectedValueOnce(new Error('offline')).mockResolvedValueOnce('fresh');
    const { cache, log } = setup(fetchToken);
    expect(await cache.get()).toBeUndefined();
    expect(log).toHaveBeenCalledTimes(1);
    expect(await cache.get()).toBe('fresh');
  });

  it('fetches again after invalidate', async () => {
    const { cache, fetchToken } = setup();
    await cache.get();
    cache.invalidate();
    expect(await cache.get()).toBe('token-2');
    expect(fetchToken).toHaveBeenCalledTimes(2);
  });

  it('does not keep a token whose fetch was under way when it was invalidated', async () => {
    let resolveFirst: (token: string) => void = () => {};
    const fetchToken = vi
      .fn()
      .mockImplementationOnce(() => new Promise<string>((resolve) => (resolveFirst = resolve)))
      .mockResolvedValueOnce('second');
    const { cache } = setup(fetchToken);
    const first = cache.get();
    cache.invalidate();
    resolveFirst('first');
    await first;
    expect(await cache.get()).toBe('second');
  });
});
