import { and, asc, eq, gt, isNotNull, lte, sql } from 'drizzle-orm';
import type { Database } from '../../db/client.js';
import { firstRow, hasAnyRow } from '../../db/result-rows.js';
import {
  customers,
  grants,
  packages,
  webhookAttempts,
  webhookEndpoints,
  webhookLicenseExpiries,
  webhookMessages,
} from '../../db/schema/index.js';
import type { LicenseOfEvent } from './webhook-events.repository.js';
import type { EndpointRow, MessageRow } from './webhooks.repository.js';

// The queries of delivering webhooks: messages, attempts, an endpoint disabled after three days of failures, and the
// once-only announcements of expired licenses (webhook_license_expiries). The expiry scan reads licenses with their
// holder and package (licenses and packages domains) and writes none of them.

type Queryable = Pick<Database, 'select' | 'insert' | 'update'>;

/** The ids of the seller's enabled endpoints that listen to `type`. */
export async function selectListeningEndpointIds(db: Queryable, sellerId: string, type: string): Promise<string[]> {
  const rows = await db
    .select({ id: webhookEndpoints.id })
    .from(webhookEndpoints)
    .where(
      and(
        eq(webhookEndpoints.sellerId, sellerId),
        eq(webhookEndpoints.isEnabled, true),
        sql`${type} = any(${webhookEndpoints.events})`,
      ),
    );
  return rows.map((row) => row.id);
}

export async function insertMessage(db: Queryable, values: typeof webhookMessages.$inferInsert): Promise<void> {
  await db.insert(webhookMessages).values(values);
}

export async function findMessageWithEndpoint(
  db: Queryable,
  messageId: string,
): Promise<{ message: MessageRow; endpoint: EndpointRow } | undefined> {
  return firstRow(
    db
      .select({ message: webhookMessages, endpoint: webhookEndpoints })
      .from(webhookMessages)
      .innerJoin(webhookEndpoints, eq(webhookEndpoints.id, webhookMessages.endpointId))
      .where(eq(webhookMessages.id, messageId)),
  );
}

export async function insertAttempt(db: Queryable, values: typeof webhookAttempts.$inferInsert): Promise<void> {
  await db.insert(webhookAttempts).values(values);
}

/** Counts an attempt on the message, with the status it leaves (unchanged when undefined). */
export async function countAttempt(
  db: Queryable,
  messageId: string,
  attemptedAt: Date,
  status: 'delivered' | 'failed' | undefined,
): Promise<void> {
  await db
    .update(webhookMessages)
    .set({
      attemptCount: sql`${webhookMessages.attemptCount} + 1`,
      updatedAt: attemptedAt,
      ...(status ? { status } : {}),
    })
    .where(eq(webhookMessages.id, messageId));
}

export async function setMessageStatus(
  db: Queryable,
  messageId: string,
  status: 'pending' | 'delivered' | 'failed',
  now: Date,
): Promise<void> {
  await db.update(webhookMessages).set({ status, updatedAt: now }).where(eq(webhookMessages.id, messageId));
}

/** Disables the message's endpoint for failing, if it is still enabled; answers it then. */
export async function disableFailingEndpointOfMessage(
  db: Queryable,
  messageId: string,
  now: Date,
): Promise<EndpointRow | undefined> {
  return firstRow(
    db
      .update(webhookEndpoints)
      .set({ isEnabled: false, disabledReason: 'failing', disabledAt: now, updatedAt: now })
      .where(
        and(
          eq(webhookEndpoints.isEnabled, true),
          sql`${webhookEndpoints.id} = (select ${webhookMessages.endpointId} from ${webhookMessages} where ${webhookMessages.id} = ${messageId})`,
        ),
      )
      .returning(),
  );
}

/**
 * Active licenses whose expiry passed in (since, now], oldest expiry first, `limit` of them, of sellers with an
 * enabled endpoint that listens to `license.expired`.
 */
export function selectLicensesExpiredBetween(
  db: Queryable,
  since: Date,
  now: Date,
  limit: number,
): Promise<LicenseOfEvent[]> {
  const listening = sql`exists (select 1 from ${webhookEndpoints} where ${webhookEndpoints.sellerId} = ${packages.ownerId} and ${webhookEndpoints.isEnabled} and 'license.expired' = any(${webhookEndpoints.events}))`;
  return db
    .select({ grant: grants, email: customers.email, packageName: packages.name, sellerId: packages.ownerId })
    .from(grants)
    .innerJoin(packages, eq(packages.id, grants.packageId))
    .innerJoin(customers, eq(customers.id, grants.customerId))
    .where(
      and(
        isNotNull(grants.expiresAt),
        gt(grants.expiresAt, since),
        lte(grants.expiresAt, now),
        eq(grants.status, 'active'),
        listening,
      ),
    )
    .orderBy(asc(grants.expiresAt))
    .limit(limit);
}

/** Records that a license's expiry was announced: true the first time, false when it was before. */
export async function claimLicenseExpiry(
  db: Queryable,
  grantId: string,
  expiresAt: Date,
  announcedAt: Date,
): Promise<boolean> {
  return hasAnyRow(
    db.insert(webhookLicenseExpiries).values({ grantId, expiresAt, announcedAt }).onConflictDoNothing().returning(),
  );
}
