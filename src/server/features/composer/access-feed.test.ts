import { describe, expect, it } from 'vitest';
import { createComposerAccess } from './access-feed.js';

// On PGlite the process's own database session is the access feed: while its thread is replaced
// (db/pglite-restarts.ts), announcements may be missed, so the warm path must hold nothing and readiness must say so.

const quietLog = { warn: () => undefined, info: () => undefined };

describe('the Composer access feed on PGlite', () => {
  it('trusts nothing held while the database thread is replaced, and counts the new thread as a reconnect', () => {
    const access = createComposerAccess(1024 * 1024, quietLog);
    access.start({ kind: 'pglite' });
    expect(access.cache.isTrusted).toBe(true);
    expect(access.status()).toMatchObject({ isListening: true, reconnects: 0 });

    access.notifications.onLost?.();
    expect(access.cache.isTrusted).toBe(false);
    expect(access.status()).toMatchObject({ isListening: false, reconnects: 0 });

    access.notifications.onLive?.();
    expect(access.cache.isTrusted).toBe(true);
    expect(access.status()).toMatchObject({ isListening: true, reconnects: 1 });
  });
});
