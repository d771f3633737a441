import { randomBytes } from 'node:crypto';
import { type Config, loadConfig } from '../../src/server/config.js';

// What every app a test, a benchmark or the journeys script starts has in common, whatever else `env` sets.

/**
 * The configuration of a silent app on a free loopback port, with its own data folder and a fresh secret key, that
 * never sheds load on event-loop delay: test files start several apps in one process, one app's start-up stalls the
 * others' event loops, and benchmarks load the loop on purpose (the overload test forces pressure instead).
 */
export function loopbackAppConfig(dataDir: string, env: Record<string, string> = {}): Config {
  return loadConfig({
    PORT: '0',
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    LOG_LEVEL: 'silent',
    SECRET_KEY: randomBytes(32).toString('hex'),
    OVERLOAD_MAX_EVENT_LOOP_DELAY_MS: '0',
    ...env,
  });
}
