import { setTimeout as sleep } from 'node:timers/promises';
import { IDEMPOTENCY_KEY_MAX_LENGTH, IDEMPOTENCY_KEY_TTL_MS } from '../../../contract/api-v1.js';
import type { AppContext } from '../../context.js';
import { AppError } from '../../http/errors.js';
import { decryptSecret, encryptSecret, sha256Hex } from '../../lib/crypto.js';
import * as repository from './idempotency.repository.js';

// Idempotency-Key on POST (as Stripe's API has it): the first answer to a key is kept 24 hours and replayed to
// every retry with the same key and the same request, which has no second effect. A duplicate arriving while
// the first still runs waits for its answer; the same key with another request is refused.
// Keys belong to the API token that sent them (issue 28): an answer may carry a secret (a new API token, a holder's
// Composer token, a webhook signing secret), so it is replayed to the token that caused it and to no other. Another
// token of the same seller sending the same key has its request run afresh, under its own permissions. The route's
// permission is checked before any of this (the bearer guard runs in onRequest, the claim in preHandler).

/** How long a duplicate waits for the first request's answer before being told to retry. */
const WAIT_FOR_FIRST_MS = 15_000;
const POLL_INTERVAL_MS = 50;
/** Printable ASCII only: keys are compared byte for byte and shown back in messages. */
const KEY_PATTERN = /^[\x21-\x7e]+$/;

/** Who sends the key: the API token (whose keys they are) and its seller. */
export type IdempotencyOwner = { sellerId: string; apiTokenId: string };
export type IdempotencyClaim = { apiTokenId: string; key: string };
export type StoredAnswer = { status: number; body: string };
export type ClaimOutcome = { kind: 'claimed'; claim: IdempotencyClaim } | { kind: 'replay'; answer: StoredAnswer };

export function parseIdempotencyKey(header: string | string[] | undefined): string | undefined {
  if (header === undefined) return undefined;
  const key = Array.isArray(header) ? header[0] : header;
  if (!key || key.length > IDEMPOTENCY_KEY_MAX_LENGTH || !KEY_PATTERN.test(key)) {
    throw new AppError(
      'VALIDATION_FAILED',
      `Idempotency-Key must be 1 to ${IDEMPOTENCY_KEY_MAX_LENGTH} printable characters without spaces.`,
    );
  }
  return key;
}

/** What makes two requests "the same": method, path with query, and body. */
export function requestFingerprint(method: string, url: string, body: unknown): string {
  return sha256Hex(`${method} ${url}\n${JSON.stringify(body ?? null)}`);
}

/**
 * Claims the key for this request, or answers the stored reply of the request that claimed it first
 * (waiting for it while it runs).
 */
export async function claimOrReplay(
  ctx: AppContext,
  owner: IdempotencyOwner,
  key: string,
  fingerprint: string,
): Promise<ClaimOutcome> {
  const now = ctx.clock.now();
  await repository.deleteExpiredKeys(ctx, owner.sellerId, now);
  const deadline = Date.now() + WAIT_FOR_FIRST_MS;
  for (;;) {
    const claimed = await repository.claimKey(ctx, {
      userId: owner.sellerId,
      apiTokenId: owner.apiTokenId,
      key,
      requestHash: fingerprint,
      createdAt: now,
      expiresAt: new Date(now.getTime() + IDEMPOTENCY_KEY_TTL_MS),
    });
    if (claimed) return { kind: 'claimed', claim: { apiTokenId: owner.apiTokenId, key } };
    const existing = await repository.findKey(ctx, owner.apiTokenId, key);
    if (!existing) continue; // the first request failed and let go of the key: try to claim it again
    if (existing.requestHash !== fingerprint) {
      throw new AppError('CONFLICT', `The Idempotency-Key ${key} was already used with a different request.`, {
        title: 'Idempotency Key Reused',
        suggestion: 'Use a new key for a new request; reuse a key only to retry the very same request.',
      });
    }
    if (existing.state === 'done' && existing.responseStatus !== null && existing.responseBodySealed !== null) {
      return {
        kind: 'replay',
        answer: {
          status: existing.responseStatus,
          body: decryptSecret(ctx.config.secretKey, existing.responseBodySealed),
        },
      };
    }
    if (Date.now() > deadline) {
      throw new AppError('CONFLICT', `A request with the Idempotency-Key ${key} is still being processed.`, {
        title: 'Request In Progress',
        suggestion: 'Retry the same request with the same key in a few seconds to receive its answer.',
      });
    }
    await sleep(POLL_INTERVAL_MS);
  }
}

/**
 * Keeps the answer for retries. A server error lets go of the key instead, so that a retry can succeed.
 * The body is sealed: it may hold a license holder's Composer token, which is never stored in clear.
 */
export async function settleClaim(ctx: AppContext, claim: IdempotencyClaim, answer: StoredAnswer): Promise<void> {
  if (answer.status >= 500) {
    await repository.releaseKey(ctx, claim.apiTokenId, claim.key);
    return;
  }
  await repository.completeKey(ctx, claim.apiTokenId, claim.key, {
    status: answer.status,
    bodySealed: encryptSecret(ctx.config.secretKey, answer.body),
  });
}
