import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config.js';

const configWith = (env: Record<string, string>) =>
  loadConfig({ DATA_DIR: '/tmp/packgate-config-test', SECRET_KEY: 'x'.repeat(32), ...env });

describe('ENABLE_DEBUG_ROUTES', () => {
  it('is off unless turned on', () => {
    expect(configWith({}).enableDebugRoutes).toBe(false);
    expect(configWith({ ENABLE_DEBUG_ROUTES: 'true', NODE_ENV: 'test' }).enableDebugRoutes).toBe(true);
  });

  it('refuses to start a production server with the debug routes on', () => {
    expect(() => configWith({ ENABLE_DEBUG_ROUTES: 'true', NODE_ENV: 'production' })).toThrow(
      new ConfigError(['ENABLE_DEBUG_ROUTES: must be off when NODE_ENV is production']),
    );
    expect(configWith({ NODE_ENV: 'production' }).enableDebugRoutes).toBe(false);
  });
});
