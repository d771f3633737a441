import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  createTemporaryLicenseInput,
  customerList,
  customerListQuery,
  regenerateTokenInput,
  regenerateTokenResponse,
  temporaryLicense,
  temporaryLicenseList,
  temporaryLicenseParams,
} from '../../../contract/licenses.js';
import { packageIdParams } from '../../../contract/packages.js';
import type { AppContext } from '../../context.js';
import { authenticated } from '../../http/guards.js';
import * as customers from './customers.service.js';
import * as licenses from './licenses.service.js';

// While an admin impersonates a seller, these act as that seller: request.seller is the impersonated user.
export async function licenseRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const api = app.withTypeProvider<ZodTypeProvider>();

  api.get(
    '/api/repositories/:id/temporary-licenses',
    {
      config: { permission: 'customers:read' },
      schema: { params: packageIdParams, response: { 200: temporaryLicenseList } },
      onRequest: authenticated,
    },
    async (request) => licenses.listTemporaryLicenses(ctx, request.seller.id, request.params.id),
  );

  api.post(
    '/api/repositories/:id/temporary-licenses',
    {
      config: { permission: 'customers:write' },
      schema: { params: packageIdParams, body: createTemporaryLicenseInput, response: { 201: temporaryLicense } },
      onRequest: authenticated,
    },
    async (request, reply) => {
      const license = await licenses.createTemporaryLicense(
        ctx,
        request.seller,
        request.principal,
        request.params.id,
        request.body ?? {},
      );
      return reply.status(201).send(license);
    },
  );

  api.delete(
    '/api/repositories/:id/temporary-licenses/:licenseId',
    {
      config: { permission: 'customers:write' },
      schema: { params: temporaryLicenseParams, response: { 200: temporaryLicense } },
      onRequest: authenticated,
    },
    async (request) =>
      licenses.revokeTemporaryLicense(ctx, request.principal, request.params.id, request.params.licenseId),
  );

  api.get(
    '/api/customers',
    {
      config: { permission: 'customers:read' },
      schema: { querystring: customerListQuery, response: { 200: customerList } },
      onRequest: authenticated,
    },
    async (request) => customers.listCustomers(ctx, request.seller.id, request.query),
  );

  api.post(
    '/api/customers/regenerate-token',
    {
      config: { permission: 'customers:write' },
      schema: { body: regenerateTokenInput, response: { 200: regenerateTokenResponse } },
      onRequest: authenticated,
    },
    async (request) => customers.regenerateToken(ctx, request.principal, request.body?.email),
  );
}
