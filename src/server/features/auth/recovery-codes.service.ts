import { randomInt } from 'node:crypto';
import { RECOVERY_CODE_COUNT } from '../../../contract/security.js';
import type { AppContext } from '../../context.js';
import type { Database } from '../../db/client.js';
import { sha256Hex } from '../../lib/crypto.js';
import * as repository from './second-factor.repository.js';

// Ten one-time recovery codes (issue 33): made when a person enrols their first second factor and on request (a new
// set replaces the old one), shown once, kept only as SHA-256 (each code carries 50 random bits, out of reach of a
// brute force against the hash and of guessing online, which is rate limited besides); each works once.

// No 0/O, 1/I/L: a code is read off paper and typed.
const ALPHABET = 'abcdefghjkmnpqrstuvwxyz23456789';
const GROUP = 5;

function newCode(): string {
  const characters = Array.from({ length: GROUP * 2 }, () => ALPHABET[randomInt(ALPHABET.length)]);
  return `${characters.slice(0, GROUP).join('')}-${characters.slice(GROUP).join('')}`;
}

/** Lower-case, without spaces or dashes: how a code is compared, however it was typed. */
function normalise(code: string): string {
  return code.toLowerCase().replaceAll(/[\s-]/g, '');
}

/** Replaces the person's codes with a new set of ten; answers them, once. `db` may be the caller's transaction. */
export async function replaceRecoveryCodes(db: Database, userId: string, now: Date): Promise<string[]> {
  const codes = Array.from({ length: RECOVERY_CODE_COUNT }, newCode);
  await repository.replaceRecoveryCodeHashes(
    db,
    userId,
    codes.map((code) => sha256Hex(normalise(code))),
    now,
  );
  return codes;
}

export function countUnusedRecoveryCodes(ctx: Pick<AppContext, 'db'>, userId: string): Promise<number> {
  return repository.countUnusedRecoveryCodes(ctx.db, userId);
}

/** Marks the code used when it is one of the person's unused codes; one statement, so a code works once. */
export function useRecoveryCode(ctx: AppContext, userId: string, code: string): Promise<boolean> {
  return repository.markRecoveryCodeUsed(ctx.db, userId, sha256Hex(normalise(code)), ctx.clock.now());
}
