import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  createProductInput,
  productIdParams,
  productList,
  productSchema,
  updateProductInput,
} from '../../../contract/products.js';
import type { AppContext } from '../../context.js';
import { authenticated } from '../../http/guards.js';
import * as products from './products.service.js';

// Management's Products section (session + CSRF): the same rules as API v1's /products.
export async function productRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const api = app.withTypeProvider<ZodTypeProvider>();

  api.get(
    '/api/products',
    {
      config: { permission: 'packages:read' },
      schema: { response: { 200: productList } },
      preValidation: authenticated,
    },
    async (request) => products.listProducts(ctx, request.seller.id),
  );

  api.post(
    '/api/products',
    {
      config: { permission: 'packages:write' },
      schema: { body: createProductInput, response: { 201: productSchema } },
      preValidation: authenticated,
    },
    async (request, reply) =>
      reply.status(201).send(await products.createProduct(ctx, request.principal, request.body)),
  );

  api.get(
    '/api/products/:productId',
    {
      config: { permission: 'packages:read' },
      schema: { params: productIdParams, response: { 200: productSchema } },
      preValidation: authenticated,
    },
    async (request) => products.getProduct(ctx, request.seller.id, request.params.productId),
  );

  api.patch(
    '/api/products/:productId',
    {
      config: { permission: 'packages:write' },
      schema: { params: productIdParams, body: updateProductInput, response: { 200: productSchema } },
      preValidation: authenticated,
    },
    async (request) => products.updateProduct(ctx, request.principal, request.params.productId, request.body),
  );

  api.delete(
    '/api/products/:productId',
    {
      config: { permission: 'packages:write' },
      schema: { params: productIdParams, response: { 200: z.object({ deleted: z.literal(true) }) } },
      preValidation: authenticated,
    },
    async (request) => products.deleteProduct(ctx, request.principal, request.params.productId),
  );
}
