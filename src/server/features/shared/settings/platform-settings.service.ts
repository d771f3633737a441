import {
  type PlatformSetting,
  type PlatformSettingKey,
  platformSettingKeys,
  REQUIRE_SECOND_FACTOR_ADMINS_SETTING,
  REQUIRE_SECOND_FACTOR_OWNERS_SETTING,
  STRIPE_SANDBOX_MODE_SETTING,
  type UpdatePlatformSettingInput,
} from '../../../../contract/billing.js';
import { defaultSandboxMode } from '../../../adapters/payments/create-payments.js';
import type { AppContext } from '../../../context.js';
import type { Database } from '../../../db/client.js';
import { AppError } from '../../../http/errors.js';
import * as repository from './platform-settings.repository.js';

// The admin's platform settings (spec admin §3, Settings card). Only known keys are listed and accepted: the
// table also holds settings that other screens own (the trial length belongs to the tier dialog), which read and
// write it through findStoredValue and storeValue, so that this module alone writes platform_settings.

const isKnownKey = (key: string): key is PlatformSettingKey => (platformSettingKeys as readonly string[]).includes(key);

/** A setting's stored value, undefined when never set. */
export function findStoredValue(ctx: Pick<AppContext, 'db'>, key: string): Promise<string | undefined> {
  return repository.selectSettingValue(ctx.db, key);
}

/** Stores a setting's value; `db` may be a transaction the caller holds. */
export function storeValue(db: Database, key: string, value: string, now: Date): Promise<void> {
  return repository.upsertSettingValue(db, key, value, now);
}

async function defaultValue(ctx: AppContext, key: PlatformSettingKey): Promise<string> {
  switch (key) {
    case STRIPE_SANDBOX_MODE_SETTING:
      return String(defaultSandboxMode(ctx.config.stripe));
    case REQUIRE_SECOND_FACTOR_ADMINS_SETTING:
      // Requiring a second factor of admins is on by default once one of them has one.
      return String(await repository.anyAdminHasSecondFactor(ctx.db));
    case REQUIRE_SECOND_FACTOR_OWNERS_SETTING:
      return 'false';
  }
}

/** A boolean setting's value, its default applied (the second-factor policy reads it on every sign-in). */
export async function readBooleanSetting(
  ctx: AppContext,
  key: typeof REQUIRE_SECOND_FACTOR_ADMINS_SETTING | typeof REQUIRE_SECOND_FACTOR_OWNERS_SETTING,
): Promise<boolean> {
  return ((await findStoredValue(ctx, key)) ?? (await defaultValue(ctx, key))) === 'true';
}

/** The stored sandbox setting, undefined when the admin never chose (create-payments applies the default). */
export function findStoredSandboxMode(ctx: AppContext): Promise<string | undefined> {
  return findStoredValue(ctx, STRIPE_SANDBOX_MODE_SETTING);
}

export async function listPlatformSettings(ctx: AppContext): Promise<PlatformSetting[]> {
  return Promise.all(
    platformSettingKeys.map(async (key) => ({
      key,
      value: (await findStoredValue(ctx, key)) ?? (await defaultValue(ctx, key)),
    })),
  );
}

function validate(input: UpdatePlatformSettingInput): { key: PlatformSettingKey; value: string } {
  if (!isKnownKey(input.key)) {
    throw new AppError('VALIDATION_FAILED', `Unknown platform setting "${input.key}".`, {
      suggestion: `Known settings: ${platformSettingKeys.join(', ')}.`,
    });
  }
  const value = input.value.trim();
  if (value !== 'true' && value !== 'false') {
    throw new AppError('VALIDATION_FAILED', `${input.key} must be 'true' or 'false'.`);
  }
  return { key: input.key, value };
}

/** Saves one setting. The payment mode takes effect at the next start of the server (spec admin §2). */
export async function updatePlatformSetting(
  ctx: AppContext,
  input: UpdatePlatformSettingInput,
  adminId: string,
): Promise<PlatformSetting> {
  const { key, value } = validate(input);
  await storeValue(ctx.db, key, value, ctx.clock.now());
  ctx.log.info({ key, value, adminId }, 'platform setting updated');
  return { key, value };
}
