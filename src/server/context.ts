import type { FastifyBaseLogger } from 'fastify';
import type { CodeHost } from './adapters/codehost/code-host.js';
import type { Mailer } from './adapters/mail/mailer.js';
import type { Realtime } from './adapters/realtime/realtime.js';
import type { ObjectStorage } from './adapters/storage/object-storage.js';
import type { Config } from './config.js';
import type { Database } from './db/client.js';
import type { Clock } from './lib/clock.js';

/** What every service receives: settings, the database and the edges, all replaceable in tests. */
export type AppContext = {
  config: Config;
  db: Database;
  clock: Clock;
  mailer: Mailer;
  realtime: Realtime;
  storage: ObjectStorage;
  /** GitHub when configured, else the local folder of git repositories. */
  codeHost: CodeHost;
  log: FastifyBaseLogger;
};
