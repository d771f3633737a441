import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import {
  createProductInput,
  productIdParams,
  productList,
  productSchema,
  updateProductInput,
} from '../../../contract/products.js';
import type { AppContext } from '../../context.js';
import { sellerRoutes } from '../../http/guarded-routes.js';
import * as products from './products.service.js';

// Management's Products section (session + CSRF): the same rules as API v1's /products.
export async function productRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const sellerApi = sellerRoutes(app, { guardAt: 'preValidation' });

  sellerApi.get(
    '/api/products',
    { permission: 'packages:read', schema: { response: { 200: productList } } },
    async (request) => products.listProducts(ctx, request.seller.id),
  );

  sellerApi.post(
    '/api/products',
    { permission: 'packages:write', schema: { body: createProductInput, response: { 201: productSchema } } },
    async (request) => products.createProduct(ctx, request.principal, request.body),
  );

  sellerApi.get(
    '/api/products/:productId',
    { permission: 'packages:read', schema: { params: productIdParams, response: { 200: productSchema } } },
    async (request) => products.getProduct(ctx, request.seller.id, request.params.productId),
  );

  sellerApi.patch(
    '/api/products/:productId',
    {
      permission: 'packages:write',
      schema: { params: productIdParams, body: updateProductInput, response: { 200: productSchema } },
    },
    async (request) => products.updateProduct(ctx, request.principal, request.params.productId, request.body),
  );

  sellerApi.delete(
    '/api/products/:productId',
    {
      permission: 'packages:write',
      schema: { params: productIdParams, response: { 200: z.object({ deleted: z.literal(true) }) } },
    },
    async (request) => products.deleteProduct(ctx, request.principal, request.params.productId),
  );
}
