import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AppContext } from '../../context.js';
import {
  BITBUCKET_WEBHOOK_PATH,
  GITLAB_WEBHOOK_PATH,
  receiveBitbucketWebhook,
  receiveGitlabWebhook,
} from './code-host-webhooks.service.js';

// GitLab's and Bitbucket's push webhooks. Bitbucket's signature covers the exact bytes sent, so these routes read
// their bodies raw: an encapsulated plugin with its own content-type parser (register it with app.register).

const WEBHOOK_BODY_LIMIT = 10 * 1024 * 1024;

function header(request: FastifyRequest, name: string): string | undefined {
  const value = request.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

export async function codeHostWebhookRoutes(app: FastifyInstance, options: { ctx: AppContext }): Promise<void> {
  const { ctx } = options;
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: WEBHOOK_BODY_LIMIT }, (_request, body, done) => {
    done(null, body);
  });
  const rawBody = (request: FastifyRequest) => (Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0));

  app.post(GITLAB_WEBHOOK_PATH, { bodyLimit: WEBHOOK_BODY_LIMIT }, async (request, reply) => {
    const answer = await receiveGitlabWebhook(ctx, {
      event: header(request, 'x-gitlab-event'),
      deliveryId: header(request, 'x-gitlab-event-uuid'),
      credential: header(request, 'x-gitlab-token'),
      rawBody: rawBody(request),
    });
    return reply.status(answer.status).send(answer.body);
  });

  app.post(BITBUCKET_WEBHOOK_PATH, { bodyLimit: WEBHOOK_BODY_LIMIT }, async (request, reply) => {
    const answer = await receiveBitbucketWebhook(ctx, {
      event: header(request, 'x-event-key'),
      deliveryId: header(request, 'x-request-uuid'),
      credential: header(request, 'x-hub-signature'),
      rawBody: rawBody(request),
    });
    return reply.status(answer.status).send(answer.body);
  });
}
