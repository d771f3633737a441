import { and, eq, exists, isNotNull, or, sql } from 'drizzle-orm';
import type { Database } from '../../../db/client.js';
import { hasAnyRow } from '../../../db/result-rows.js';
import { platformSettings, userPasskeys, users, userTotpSecrets } from '../../../db/schema/index.js';

// The queries of the platform's settings (the `platform_settings` table, which platform-settings.service.ts alone
// writes).

/** The database or an open transaction. */
type Queryable = Pick<Database, 'select' | 'insert'>;

export async function selectSettingValue(db: Queryable, key: string): Promise<string | undefined> {
  const [row] = await db
    .select({ value: platformSettings.value })
    .from(platformSettings)
    .where(eq(platformSettings.key, key))
    .limit(1);
  return row?.value;
}

export async function upsertSettingValue(db: Queryable, key: string, value: string, now: Date): Promise<void> {
  await db
    .insert(platformSettings)
    .values({ key, value, updatedAt: now })
    .onConflictDoUpdate({ target: platformSettings.key, set: { value, updatedAt: now } });
}

/**
 * Whether an admin has a passkey or a confirmed authenticator app. It reads the auth domain's tables here because
 * shared infrastructure sits below every domain and may not call one; it only reads.
 */
export async function anyAdminHasSecondFactor(db: Queryable): Promise<boolean> {
  return hasAnyRow(
    db
      .select({ id: users.id })
      .from(users)
      .where(
        and(
          eq(users.userType, 'admin'),
          or(
            exists(db.select({ one: sql`1` }).from(userPasskeys).where(eq(userPasskeys.userId, users.id))),
            exists(
              db
                .select({ one: sql`1` })
                .from(userTotpSecrets)
                .where(and(eq(userTotpSecrets.userId, users.id), isNotNull(userTotpSecrets.confirmedAt))),
            ),
          ),
        ),
      )
      .limit(1),
  );
}
