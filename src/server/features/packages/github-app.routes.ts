import type { FastifyInstance } from 'fastify';
import {
  connectGithubAppInput,
  githubAppConnectedSchema,
  githubAppInstallSchema,
} from '../../../contract/code-hosts.js';
import type { AppContext } from '../../context.js';
import { sellerRoutes } from '../../http/guarded-routes.js';
import { githubAppInstallUrl } from '../code-hosts/github-app-connect.service.js';
import { connectGithubApp } from './github-app-switch.service.js';
import { receiveGithubAppWebhook } from './github-app-webhook.service.js';
import { githubWebhookRoute } from './github-webhook-route.js';

// The GitHub App's doors (issue 30 item 1): where to install it, the seller's return from GitHub, and its webhook.

export async function githubAppRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const sellerApi = sellerRoutes(app);

  sellerApi.get(
    '/api/code-hosts/github-app/install',
    { permission: 'packages:write', noStore: true, schema: { response: { 200: githubAppInstallSchema } } },
    async (request) => ({ url: githubAppInstallUrl(ctx, request.seller.id) }),
  );

  sellerApi.post(
    '/api/code-hosts/github-app',
    {
      permission: 'packages:write',
      schema: { body: connectGithubAppInput, response: { 201: githubAppConnectedSchema } },
    },
    async (request) => {
      const connected = await connectGithubApp(ctx, request.principal, request.body);
      return {
        connectionId: connected.connection.id,
        label: connected.connection.label,
        movedPackages: connected.movedPackages,
      };
    },
  );

  await app.register(githubWebhookRoute('/api/webhooks/github-app', receiveGithubAppWebhook), { ctx });
}
