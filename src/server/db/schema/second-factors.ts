import { bigint, index, jsonb, pgTable, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { belongsTo, timestamptz, timestamptzNow, uuidPrimaryKey } from './columns.js';
import { users } from './users.js';

/** A WebAuthn credential (passkey) of a seller or admin (issue 33). */
export const userPasskeys = pgTable(
  'user_passkeys',
  {
    id: uuidPrimaryKey(),
    userId: belongsTo('user_id', () => users.id),
    /** base64url credential id, as the authenticator gave it. */
    credentialId: text('credential_id').notNull(),
    /** base64url COSE public key. */
    publicKey: text('public_key').notNull(),
    counter: bigint('counter', { mode: 'number' }).notNull().default(0),
    transports: jsonb('transports').$type<string[]>().notNull().default([]),
    name: text('name').notNull(),
    createdAt: timestamptzNow('created_at'),
    lastUsedAt: timestamptz('last_used_at'),
  },
  (table) => [
    uniqueIndex('user_passkeys_credential_id_unique').on(table.credentialId),
    index('user_passkeys_user_idx').on(table.userId),
  ],
);

/** An authenticator-app (TOTP) secret, sealed with AES-256-GCM; usable once confirmed. */
export const userTotpSecrets = pgTable('user_totp_secrets', {
  userId: uuid('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  secretSealed: text('secret_sealed').notNull(),
  confirmedAt: timestamptz('confirmed_at'),
  /** The last 30-second step a code was accepted for: a code is never accepted twice. */
  lastUsedStep: bigint('last_used_step', { mode: 'number' }),
  createdAt: timestamptzNow('created_at'),
});

/** One-time recovery codes (ten per set); only their SHA-256 is kept. */
export const userRecoveryCodes = pgTable(
  'user_recovery_codes',
  {
    id: uuidPrimaryKey(),
    userId: belongsTo('user_id', () => users.id),
    codeHash: text('code_hash').notNull(),
    createdAt: timestamptzNow('created_at'),
    usedAt: timestamptz('used_at'),
  },
  (table) => [index('user_recovery_codes_user_idx').on(table.userId)],
);

/** A WebAuthn challenge handed out for one ceremony (registration or sign-in), single use, short-lived. */
export const webauthnChallenges = pgTable(
  'webauthn_challenges',
  {
    id: uuidPrimaryKey(),
    /** Null for a sign-in that has not named its user yet (discoverable credentials). */
    userId: uuid('user_id').references(() => users.id, { onDelete: 'cascade' }),
    purpose: text('purpose', { enum: ['registration', 'authentication'] }).notNull(),
    challenge: text('challenge').notNull(),
    createdAt: timestamptzNow('created_at'),
    expiresAt: timestamptz('expires_at').notNull(),
  },
  (table) => [index('webauthn_challenges_expires_idx').on(table.expiresAt)],
);
