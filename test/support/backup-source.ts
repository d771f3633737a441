import { vi } from 'vitest';
import {
  createGrant,
  createHolder,
  createPackage,
  createSeller,
  type FixtureHolder,
  type FixturePackage,
} from '../composer/repository-fixtures.js';
import type { TestUser } from './sessions.js';
import type { TestApp } from './test-app.js';

// What the backup tests back up and how they run the admin commands that back up and restore.

export type LicensedWidget = { acme: TestUser; widget: FixturePackage; holder: FixtureHolder };

/** Seller acme with acme/widget tagged v1.0.0 and v1.1.0, and a license holder granted the package. */
export async function createLicensedWidget(app: TestApp): Promise<LicensedWidget> {
  const acme = await createSeller(app, 'acme');
  const widget = await createPackage(app, acme, 'acme/widget', [
    { version: 'v1.0.0', releasedAt: '2026-01-10T10:00:00Z' },
    { version: 'v1.1.0', releasedAt: '2026-02-10T10:00:00Z' },
  ]);
  const holder = await createHolder(app, acme);
  await createGrant(app, holder, widget);
  return { acme, widget, holder };
}

/** Runs an admin command with its console captured: its exit code and what it printed as errors. */
export async function runAdminCommand(command: () => Promise<number>): Promise<{ code: number; message: string }> {
  const errors: string[] = [];
  const errorSpy = vi.spyOn(console, 'error').mockImplementation((line: string) => void errors.push(line));
  const logSpy = vi.spyOn(console, 'log').mockImplementation(() => undefined);
  try {
    return { code: await command(), message: errors.join('\n') };
  } finally {
    errorSpy.mockRestore();
    logSpy.mockRestore();
  }
}
