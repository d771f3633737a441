import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  connectGithubAppInput,
  githubAppConnectedSchema,
  githubAppInstallSchema,
} from '../../../contract/code-hosts.js';
import type { AppContext } from '../../context.js';
import { authenticated } from '../../http/guards.js';
import { githubAppInstallUrl } from '../code-hosts/github-app-connect.service.js';
import { connectGithubApp } from './github-app-switch.service.js';
import { receiveGithubAppWebhook } from './github-app-webhook.service.js';
import { githubWebhookRoute } from './github-webhook-route.js';

// The GitHub App's doors (issue 30 item 1): where to install it, the seller's return from GitHub, and its webhook.

export async function githubAppRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const api = app.withTypeProvider<ZodTypeProvider>();

  api.get(
    '/api/code-hosts/github-app/install',
    {
      config: { permission: 'packages:write' },
      schema: { response: { 200: githubAppInstallSchema } },
      onRequest: authenticated,
    },
    async (request, reply) => {
      reply.headers({ 'cache-control': 'no-store' });
      return { url: githubAppInstallUrl(ctx, request.seller.id) };
    },
  );

  api.post(
    '/api/code-hosts/github-app',
    {
      config: { permission: 'packages:write' },
      schema: { body: connectGithubAppInput, response: { 201: githubAppConnectedSchema } },
      onRequest: authenticated,
    },
    async (request, reply) => {
      const connected = await connectGithubApp(ctx, request.principal, request.body);
      return reply.status(201).send({
        connectionId: connected.connection.id,
        label: connected.connection.label,
        movedPackages: connected.movedPackages,
      });
    },
  );

  await app.register(githubWebhookRoute('/api/webhooks/github-app', receiveGithubAppWebhook), { ctx });
}
