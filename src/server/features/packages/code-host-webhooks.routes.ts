import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.js';
import { acceptRawBodies, firstHeader, rawBodyOf } from '../../http/raw-body.js';
import {
  BITBUCKET_WEBHOOK_PATH,
  GITLAB_WEBHOOK_PATH,
  receiveBitbucketWebhook,
  receiveGitlabWebhook,
} from './code-host-webhooks.service.js';

// GitLab's and Bitbucket's push webhooks. Bitbucket's signature covers the exact bytes sent, so these routes read
// their bodies raw (http/raw-body.ts): an encapsulated plugin (register it with app.register).

const WEBHOOK_BODY_LIMIT = 10 * 1024 * 1024;

export async function codeHostWebhookRoutes(app: FastifyInstance, options: { ctx: AppContext }): Promise<void> {
  const { ctx } = options;
  acceptRawBodies(app, WEBHOOK_BODY_LIMIT);

  app.post(GITLAB_WEBHOOK_PATH, { bodyLimit: WEBHOOK_BODY_LIMIT }, async (request, reply) => {
    const answer = await receiveGitlabWebhook(ctx, {
      event: firstHeader(request, 'x-gitlab-event'),
      deliveryId: firstHeader(request, 'x-gitlab-event-uuid'),
      credential: firstHeader(request, 'x-gitlab-token'),
      rawBody: rawBodyOf(request),
    });
    return reply.status(answer.status).send(answer.body);
  });

  app.post(BITBUCKET_WEBHOOK_PATH, { bodyLimit: WEBHOOK_BODY_LIMIT }, async (request, reply) => {
    const answer = await receiveBitbucketWebhook(ctx, {
      event: firstHeader(request, 'x-event-key'),
      deliveryId: firstHeader(request, 'x-request-uuid'),
      credential: firstHeader(request, 'x-hub-signature'),
      rawBody: rawBodyOf(request),
    });
    return reply.status(answer.status).send(answer.body);
  });
}
