import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../../context.js';
import { tokenOf } from '../../http/principal.js';
import {
  claimOrReplay,
  type IdempotencyClaim,
  parseIdempotencyKey,
  requestFingerprint,
  settleClaim,
} from './idempotency.service.js';

// The hooks that put Idempotency-Key around every POST of the scope.

declare module 'fastify' {
  interface FastifyRequest {
    idempotencyClaim?: IdempotencyClaim;
  }
}

export const IDEMPOTENT_REPLAY_HEADER = 'idempotent-replayed';

export function registerIdempotency(app: FastifyInstance, ctx: AppContext): void {
  // preHandler: after authentication, the route's permission (both onRequest) and validation, so that a refused
  // request claims nothing and is never answered from a stored reply.
  app.addHook('preHandler', async (request: FastifyRequest, reply: FastifyReply) => {
    if (request.method !== 'POST') return;
    const key = parseIdempotencyKey(request.headers['idempotency-key']);
    if (!key) return;
    const outcome = await claimOrReplay(
      ctx,
      { sellerId: request.principal.sellerId, apiTokenId: tokenOf(request.principal).tokenId },
      key,
      requestFingerprint(request.method, request.url, request.body),
    );
    if (outcome.kind === 'claimed') {
      request.idempotencyClaim = outcome.claim;
      return;
    }
    return reply
      .status(outcome.answer.status)
      .header(IDEMPOTENT_REPLAY_HEADER, 'true')
      .type('application/json; charset=utf-8')
      .send(outcome.answer.body);
  });

  app.addHook('onSend', async (request: FastifyRequest, reply: FastifyReply, payload: unknown) => {
    const claim = request.idempotencyClaim;
    if (!claim) return payload;
    request.idempotencyClaim = undefined;
    await settleClaim(ctx, claim, { status: reply.statusCode, body: typeof payload === 'string' ? payload : '' });
    return payload;
  });
}
