import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.js';
import { acceptRawBodies, firstHeader, rawBodyOf } from '../../http/raw-body.js';
import type { GithubDelivery, GithubWebhookAnswer } from './github-webhook.service.js';

/** GitHub caps webhook payloads at 25 MB; a push of tags and branches, or what the App hears, is far smaller. */
const WEBHOOK_BODY_LIMIT = 10 * 1024 * 1024;

/**
 * The plugin (register it with app.register) of one GitHub webhook at `url`, the repositories' or the App's. The
 * signature covers the exact bytes GitHub sent, so this route alone reads its body raw: an encapsulated plugin with
 * its own content-type parser, leaving JSON parsing everywhere else as it is.
 */
export function githubWebhookRoute(
  url: string,
  receive: (ctx: AppContext, delivery: GithubDelivery) => Promise<GithubWebhookAnswer>,
) {
  return async function githubWebhookRoutes(app: FastifyInstance, options: { ctx: AppContext }): Promise<void> {
    const { ctx } = options;
    acceptRawBodies(app, WEBHOOK_BODY_LIMIT);

    app.post(url, { bodyLimit: WEBHOOK_BODY_LIMIT }, async (request, reply) => {
      const answer = await receive(ctx, {
        event: firstHeader(request, 'x-github-event'),
        deliveryId: firstHeader(request, 'x-github-delivery'),
        signature: firstHeader(request, 'x-hub-signature-256'),
        contentType: firstHeader(request, 'content-type'),
        rawBody: rawBodyOf(request),
      });
      return reply.status(answer.status).send(answer.body);
    });
  };
}
