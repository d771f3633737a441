import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { productIdParams } from '../../../contract/products.js';
import { startCheckoutResponse, testPurchaseInput } from '../../../contract/sales.js';
import type { AppContext } from '../../context.js';
import { authenticated } from '../../http/guards.js';
import { runProductTestPurchase } from './test-purchase.service.js';

// The seller's test purchase of a product (billing off, issue 31), beside the package's
// (POST /api/repositories/{id}/test-purchase in sales.routes.ts): the same permission, body and answer.

export async function productTestPurchaseRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  app.withTypeProvider<ZodTypeProvider>().post(
    '/api/products/:productId/test-purchase',
    {
      config: { permission: 'prices:write' },
      schema: { params: productIdParams, body: testPurchaseInput, response: { 200: startCheckoutResponse } },
      onRequest: authenticated,
    },
    async (request) => runProductTestPurchase(ctx, request.principal, request.params.productId, request.body),
  );
}
