import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  codeHostRepositoryList,
  createGitPackageInput,
  createPackageInput,
  createPackageResponse,
  deletePackageResponse,
  packageDetailSchema,
  packageIdParams,
  packageList,
  packageSchema,
  reconcilePackagesResponse,
  refreshPackageResponse,
  updatePackageInput,
} from '../../../contract/packages.js';
import type { AppContext } from '../../context.js';
import { authenticated } from '../../http/guards.js';
import { createGitPackage } from './git-packages.service.js';
import { receiveGithubWebhook } from './github-webhook.service.js';
import { githubWebhookRoute } from './github-webhook-route.js';
import { deletePackage, refreshPackage, updatePackage } from './package-changes.service.js';
import { createPackage } from './package-create.service.js';
import * as packages from './packages.service.js';
import { requestReconciliation } from './reconcile.job.js';

export async function packageRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const noStore = { 'cache-control': 'no-store' };

  api.get(
    '/api/github/repositories',
    {
      config: { permission: 'packages:write' },
      schema: { response: { 200: codeHostRepositoryList } },
      onRequest: authenticated,
    },
    async (request, reply) => {
      reply.headers(noStore);
      return packages.listCodeHostRepositories(ctx, request.seller);
    },
  );

  api.get(
    '/api/repositories',
    { config: { permission: 'packages:read' }, schema: { response: { 200: packageList } }, onRequest: authenticated },
    async (request, reply) => {
      reply.headers(noStore);
      return packages.listPackagesForOwner(ctx, request.seller.id);
    },
  );

  api.post(
    '/api/repositories',
    {
      config: { permission: 'packages:write' },
      schema: { body: createPackageInput, response: { 201: createPackageResponse } },
      onRequest: authenticated,
    },
    async (request, reply) => {
      const created = await createPackage(ctx, request.principal, request.body);
      return reply.status(201).send(created);
    },
  );

  // Any git server by its URL (issue 30 item 4): HTTPS with a user name and password, or SSH with a deploy key.
  api.post(
    '/api/repositories/from-url',
    {
      config: { permission: 'packages:write' },
      schema: { body: createGitPackageInput, response: { 201: createPackageResponse } },
      onRequest: authenticated,
    },
    async (request, reply) => {
      const created = await createGitPackage(ctx, request.principal, request.body);
      return reply.status(201).send(created);
    },
  );

  api.get(
    '/api/repositories/:id',
    {
      config: { permission: 'packages:read' },
      schema: { params: packageIdParams, response: { 200: packageDetailSchema } },
      onRequest: authenticated,
    },
    async (request, reply) => {
      reply.headers(noStore);
      return packages.getPackageDetail(ctx, request.seller.id, request.params.id);
    },
  );

  api.put(
    '/api/repositories/:id',
    {
      config: { permission: 'packages:write' },
      schema: { params: packageIdParams, body: updatePackageInput, response: { 200: packageSchema } },
      onRequest: authenticated,
    },
    async (request) => updatePackage(ctx, request.principal, request.params.id, request.body),
  );

  api.delete(
    '/api/repositories/:id',
    {
      config: { permission: 'packages:write' },
      schema: { params: packageIdParams, response: { 200: deletePackageResponse } },
      onRequest: authenticated,
    },
    async (request) => {
      await deletePackage(ctx, request.principal, request.params.id);
      return { success: true as const, id: request.params.id };
    },
  );

  api.post(
    '/api/repositories/:id/refresh',
    {
      config: { permission: 'packages:write' },
      schema: { params: packageIdParams, response: { 202: refreshPackageResponse } },
      onRequest: authenticated,
    },
    async (request, reply) => {
      const sync = await refreshPackage(ctx, request.principal, request.params.id);
      return reply.status(202).send({ taskId: sync.taskId });
    },
  );

  // Check for new tags: the seller's packages compared with their remotes now, as the schedule does (issue 30 item 5).
  api.post(
    '/api/repositories/reconcile',
    {
      config: { permission: 'packages:write' },
      schema: { response: { 202: reconcilePackagesResponse } },
      onRequest: authenticated,
    },
    async (request, reply) => reply.status(202).send({ jobId: await requestReconciliation(ctx, request.seller.id) }),
  );

  await app.register(githubWebhookRoute('/api/webhooks/github', receiveGithubWebhook), { ctx });
}
