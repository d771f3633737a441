import type { FastifyInstance } from 'fastify';
import {
  issuedLicense,
  issueLicenseInput,
  issueLicensesInput,
  license,
  licenseIdParams,
  licenseList,
  updateLicenseInput,
} from '../../../contract/licenses.js';
import { packageIdParams } from '../../../contract/packages.js';
import { productIdParams } from '../../../contract/products.js';
import type { AppContext } from '../../context.js';
import { sellerRoutes } from '../../http/guarded-routes.js';
import * as lastingLicenses from './lasting-licenses.service.js';
import { issueLicenses } from './license-batch.service.js';

// The Management license dialog's calls: the same terms as API v1's licenses, by hand (session + CSRF).
export async function lastingLicenseRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const sellerApi = sellerRoutes(app, { guardAt: 'preValidation' });
  const noStore = { 'cache-control': 'no-store' };

  sellerApi.get(
    '/api/repositories/:id/licenses',
    {
      permission: 'customers:read',
      noStore: true,
      schema: { params: packageIdParams, response: { 200: licenseList } },
    },
    async (request) => lastingLicenses.listLicenses(ctx, request.seller.id, { packageId: request.params.id }),
  );

  sellerApi.post(
    '/api/repositories/:id/licenses',
    {
      permission: 'customers:write',
      schema: { params: packageIdParams, body: issueLicenseInput, response: { 201: issuedLicense } },
    },
    async (request, reply) => {
      const user = request.seller;
      const issued = await lastingLicenses.issueLicense(ctx, user, request.principal, request.params.id, request.body);
      return reply.headers(noStore).send(issued);
    },
  );

  // The licenses of a product (Management's Products tab, issue 31).
  sellerApi.get(
    '/api/products/:productId/licenses',
    {
      permission: 'customers:read',
      noStore: true,
      schema: { params: productIdParams, response: { 200: licenseList } },
    },
    async (request) => lastingLicenses.listLicenses(ctx, request.seller.id, { productId: request.params.productId }),
  );

  // Several packages or a product for one holder at once (issue 31): one transaction, one e-mail.
  sellerApi.post(
    '/api/licenses',
    { permission: 'customers:write', schema: { body: issueLicensesInput, response: { 201: issuedLicense } } },
    async (request, reply) => {
      const { packageId, packageIds, productId, ...terms } = request.body;
      const issued = await issueLicenses(
        ctx,
        request.seller,
        request.principal,
        { packageId, packageIds, productId },
        terms,
      );
      return reply.headers(noStore).send(issued);
    },
  );

  sellerApi.patch(
    '/api/licenses/:licenseId',
    {
      permission: 'customers:write',
      schema: { params: licenseIdParams, body: updateLicenseInput, response: { 200: license } },
    },
    async (request) => lastingLicenses.updateLicense(ctx, request.principal, request.params.licenseId, request.body),
  );
}
