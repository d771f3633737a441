import type { FastifyInstance } from 'fastify';
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
import { sellerRoutes } from '../../http/guarded-routes.js';
import { createGitPackage } from './git-packages.service.js';
import { receiveGithubWebhook } from './github-webhook.service.js';
import { githubWebhookRoute } from './github-webhook-route.js';
import { deletePackage, refreshPackage, updatePackage } from './package-changes.service.js';
import { createPackage } from './package-create.service.js';
import * as packages from './packages.service.js';
import { requestReconciliation } from './reconcile.job.js';

export async function packageRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const sellerApi = sellerRoutes(app);
  const noStore = { 'cache-control': 'no-store' };

  sellerApi.get(
    '/api/github/repositories',
    { permission: 'packages:write', schema: { response: { 200: codeHostRepositoryList } } },
    async (request, reply) => {
      reply.headers(noStore);
      return packages.listCodeHostRepositories(ctx, request.seller);
    },
  );

  sellerApi.get(
    '/api/repositories',
    { permission: 'packages:read', schema: { response: { 200: packageList } } },
    async (request, reply) => {
      reply.headers(noStore);
      return packages.listPackagesForOwner(ctx, request.seller.id);
    },
  );

  sellerApi.post(
    '/api/repositories',
    { permission: 'packages:write', schema: { body: createPackageInput, response: { 201: createPackageResponse } } },
    async (request, reply) => {
      const created = await createPackage(ctx, request.principal, request.body);
      return reply.status(201).send(created);
    },
  );

  // Any git server by its URL (issue 30 item 4): HTTPS with a user name and password, or SSH with a deploy key.
  sellerApi.post(
    '/api/repositories/from-url',
    { permission: 'packages:write', schema: { body: createGitPackageInput, response: { 201: createPackageResponse } } },
    async (request, reply) => {
      const created = await createGitPackage(ctx, request.principal, request.body);
      return reply.status(201).send(created);
    },
  );

  sellerApi.get(
    '/api/repositories/:id',
    { permission: 'packages:read', schema: { params: packageIdParams, response: { 200: packageDetailSchema } } },
    async (request, reply) => {
      reply.headers(noStore);
      return packages.getPackageDetail(ctx, request.seller.id, request.params.id);
    },
  );

  sellerApi.put(
    '/api/repositories/:id',
    {
      permission: 'packages:write',
      schema: { params: packageIdParams, body: updatePackageInput, response: { 200: packageSchema } },
    },
    async (request) => updatePackage(ctx, request.principal, request.params.id, request.body),
  );

  sellerApi.delete(
    '/api/repositories/:id',
    { permission: 'packages:write', schema: { params: packageIdParams, response: { 200: deletePackageResponse } } },
    async (request) => {
      await deletePackage(ctx, request.principal, request.params.id);
      return { success: true as const, id: request.params.id };
    },
  );

  sellerApi.post(
    '/api/repositories/:id/refresh',
    { permission: 'packages:write', schema: { params: packageIdParams, response: { 202: refreshPackageResponse } } },
    async (request, reply) => {
      const sync = await refreshPackage(ctx, request.principal, request.params.id);
      return reply.status(202).send({ taskId: sync.taskId });
    },
  );

  // Check for new tags: the seller's packages compared with their remotes now, as the schedule does (issue 30 item 5).
  sellerApi.post(
    '/api/repositories/reconcile',
    { permission: 'packages:write', schema: { response: { 202: reconcilePackagesResponse } } },
    async (request, reply) => reply.status(202).send({ jobId: await requestReconciliation(ctx, request.seller.id) }),
  );

  await app.register(githubWebhookRoute('/api/webhooks/github', receiveGithubWebhook), { ctx });
}
