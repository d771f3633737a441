import { describe, expect, it } from 'vitest';
import { isClientRoute } from './client-routes';

describe('isClientRoute', () => {
  it('knows the pages of the web app', () => {
    for (const path of [
      '/',
      '/terms',
      '/admin/login',
      '/dashboard',
      '/api-docs',
      '/packages',
      '/purchase',
      '/purchase/success',
    ]) {
      expect(isClientRoute(path, { debugRoutes: false })).toBe(true);
    }
  });

  it('rejects paths the app has no page for, including near misses', () => {
    for (const path of ['/nope', '/terms/', '/admin/users', '/dashboard/x', '']) {
      expect(isClientRoute(path, { debugRoutes: false })).toBe(false);
    }
  });

  it('counts the logout test page only where debug routes are served', () => {
    expect(isClientRoute('/logout-test', { debugRoutes: false })).toBe(false);
    expect(isClientRoute('/logout-test', { debugRoutes: true })).toBe(true);
  });
});
