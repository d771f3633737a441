import { buildApp } from './app.js';
import { ConfigError, loadConfig } from './config.js';
import { loadEnvFileIfPresent } from './env-file.js';
import { listenUrls } from './listen-urls.js';
import { createShutdownHandler } from './shutdown.js';

/** Loads the configuration, starts the app and listens until a signal stops it (main.ts calls it). */
export async function runServer(): Promise<void> {
  let config: ReturnType<typeof loadConfig>;
  try {
    loadEnvFileIfPresent();
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      process.exit(1);
    }
    throw error;
  }
  const { app, close } = await buildApp({ config });
  const shutdown = createShutdownHandler({
    close,
    deadlineMs: config.shutdownTimeoutMs,
    log: app.log,
    exit: (code) => process.exit(code),
  });
  process.on('SIGINT', shutdown);
  process.on('SIGTERM', shutdown);

  await app.listen({ port: config.port, host: config.host });
  // Every address actually bound (`localhost` is two), so the banner never claims more or less than is reachable.
  const listening = listenUrls(app.addresses());
  const database = config.databaseUrl ? 'PostgreSQL (DATABASE_URL)' : `PGlite in ${config.dataDir}/pglite`;
  const mail = config.smtpUrl ? 'SMTP (SMTP_URL)' : `.eml files in ${config.dataDir}/outbox`;
  const signIn = config.github ? `GitHub (${config.github.webUrl})` : 'e-mail link (GitHub not configured)';
  console.log(
    [
      '',
      `  Packgate is running at ${config.publicUrl}`,
      `  Listening on ${listening.join(', ')}${config.host === 'localhost' ? ' (this machine only; set HOST to listen elsewhere)' : ''}`,
      `  Composer repositories: http://{seller}.${config.composerDomain}:${config.port}`,
      `  Database: ${database}`,
      `  Mail: ${mail}`,
      `  Seller sign-in: ${signIn}`,
      `  Git repositories: ${config.gitReposDir}`,
      '  Create an admin: npm run admin -- create you@example.com',
      '',
    ].join('\n'),
  );
}
