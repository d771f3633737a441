import type { FastifyInstance } from 'fastify';
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
import { sellerRoutes } from '../../http/guarded-routes.js';
import * as customers from './customers.service.js';
import * as licenses from './licenses.service.js';

// While an admin impersonates a seller, these act as that seller: request.seller is the impersonated user.
export async function licenseRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const sellerApi = sellerRoutes(app);

  sellerApi.get(
    '/api/repositories/:id/temporary-licenses',
    { permission: 'customers:read', schema: { params: packageIdParams, response: { 200: temporaryLicenseList } } },
    async (request) => licenses.listTemporaryLicenses(ctx, request.seller.id, request.params.id),
  );

  sellerApi.post(
    '/api/repositories/:id/temporary-licenses',
    {
      permission: 'customers:write',
      schema: { params: packageIdParams, body: createTemporaryLicenseInput, response: { 201: temporaryLicense } },
    },
    async (request) =>
      licenses.createTemporaryLicense(ctx, request.seller, request.principal, request.params.id, request.body ?? {}),
  );

  sellerApi.delete(
    '/api/repositories/:id/temporary-licenses/:licenseId',
    { permission: 'customers:write', schema: { params: temporaryLicenseParams, response: { 200: temporaryLicense } } },
    async (request) =>
      licenses.revokeTemporaryLicense(ctx, request.principal, request.params.id, request.params.licenseId),
  );

  sellerApi.get(
    '/api/customers',
    { permission: 'customers:read', schema: { querystring: customerListQuery, response: { 200: customerList } } },
    async (request) => customers.listCustomers(ctx, request.seller.id, request.query),
  );

  sellerApi.post(
    '/api/customers/regenerate-token',
    {
      permission: 'customers:write',
      schema: { body: regenerateTokenInput, response: { 200: regenerateTokenResponse } },
    },
    async (request) => customers.regenerateToken(ctx, request.principal, request.body?.email),
  );
}
