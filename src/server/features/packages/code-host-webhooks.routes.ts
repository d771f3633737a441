import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
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

/** The headers each host sends its delivery's event, id and credential in. */
const deliveryHeaders = {
  gitlab: { event: 'x-gitlab-event', deliveryId: 'x-gitlab-event-uuid', credential: 'x-gitlab-token' },
  bitbucket: { event: 'x-event-key', deliveryId: 'x-request-uuid', credential: 'x-hub-signature' },
};

export async function codeHostWebhookRoutes(app: FastifyInstance, options: { ctx: AppContext }): Promise<void> {
  const { ctx } = options;
  acceptRawBodies(app, WEBHOOK_BODY_LIMIT);

  /** Reads a host's delivery off the request and answers with what the host's receiver decided. */
  const pushWebhook =
    (receive: typeof receiveGitlabWebhook, headers: (typeof deliveryHeaders)[keyof typeof deliveryHeaders]) =>
    async (request: FastifyRequest, reply: FastifyReply) => {
      const answer = await receive(ctx, {
        event: firstHeader(request, headers.event),
        deliveryId: firstHeader(request, headers.deliveryId),
        credential: firstHeader(request, headers.credential),
        rawBody: rawBodyOf(request),
      });
      return reply.status(answer.status).send(answer.body);
    };

  app.post(
    GITLAB_WEBHOOK_PATH,
    { bodyLimit: WEBHOOK_BODY_LIMIT },
    pushWebhook(receiveGitlabWebhook, deliveryHeaders.gitlab),
  );
  app.post(
    BITBUCKET_WEBHOOK_PATH,
    { bodyLimit: WEBHOOK_BODY_LIMIT },
    pushWebhook(receiveBitbucketWebhook, deliveryHeaders.bitbucket),
  );
}
