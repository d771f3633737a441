import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { apiV1ConnectBitbucketInput, apiV1ConnectGitlabInput } from '../../../contract/code-host-tokens.js';
import {
  apiV1CodeHostParams,
  type CodeHostConnection,
  codeHostConnectionSchema,
  connectionRepositoryList,
} from '../../../contract/code-hosts.js';
import type { AppContext } from '../../context.js';
import { AppError } from '../../http/errors.js';
import { connectBitbucket } from '../code-hosts/bitbucket-connect.service.js';
import {
  listConnectionRepositories,
  listConnections,
  removeConnection,
  withConnectionErrors,
} from '../code-hosts/code-hosts.service.js';
import { connectGitlabToken } from '../code-hosts/gitlab-connect.service.js';
import { createdResponses, envelope, okResponses } from './envelope.js';
import { idempotencyHeader } from './openapi.js';

// API v1: code hosts (issue 30), so a seller's own tooling connects GitLab and Bitbucket Cloud with an access token,
// sees what each connection may read, and removes one. A package is then added from a connection with
// POST /packages {connectionId, githubRepoId}; any git server needs no connection (POST /packages {repositoryUrl}).

const deletedConnection = z.object({ id: z.string(), deleted: z.literal(true) });

/** The connection just stored, as GET /code-hosts lists it (with what it may access and its package count). */
async function connectionView(ctx: AppContext, sellerId: string, connectionId: string): Promise<CodeHostConnection> {
  const view = (await listConnections(ctx, sellerId)).find((connection) => connection.id === connectionId);
  if (!view) throw new AppError('NOT_FOUND', 'Code host connection not found');
  return view;
}

export async function codeHostsV1Routes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const api = app.withTypeProvider<ZodTypeProvider>();

  api.get(
    '/code-hosts',
    {
      config: { apiPermission: 'packages:read' },
      schema: {
        tags: ['Code hosts'],
        operationId: 'listCodeHosts',
        summary: 'List code host connections',
        description:
          'Every connection your packages can come from, with what each may access, whether it works (status, ' +
          'problem) and how many packages sync through it. Tokens and keys are never returned.',
        response: okResponses(z.array(codeHostConnectionSchema)),
      },
    },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      return envelope(await listConnections(ctx, request.principal.sellerId));
    },
  );

  api.get(
    '/code-hosts/:connectionId/repositories',
    {
      config: { apiPermission: 'packages:read' },
      schema: {
        tags: ['Code hosts'],
        operationId: 'listCodeHostRepositories',
        summary: 'List a connection’s repositories',
        description:
          'The repositories the connection may read, asked of the host now. Add one as a package with ' +
          'POST /packages and {connectionId, githubRepoId: its id, packageName}. A host that refuses the ' +
          'connection’s token answers 401 with what to do.',
        params: apiV1CodeHostParams,
        response: okResponses(connectionRepositoryList),
      },
    },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      const repositories = await withConnectionErrors(() =>
        listConnectionRepositories(ctx, request.principal.sellerId, request.params.connectionId),
      );
      return envelope(
        repositories.map((repository) => ({
          id: repository.id,
          fullName: repository.fullName,
          description: repository.description,
          hasComposerJson: repository.hasComposerJson,
          composerName: repository.composerName,
        })),
      );
    },
  );

  api.post(
    '/code-hosts/gitlab',
    {
      config: { apiPermission: 'packages:write' },
      schema: {
        tags: ['Code hosts'],
        operationId: 'connectGitlab',
        summary: 'Connect GitLab',
        description:
          'token: a project, group or personal access token with read_api and read_repository; baseUrl: your ' +
          'self-managed GitLab, left out for the server’s default. GitLab is asked about the token before anything ' +
          'is stored; a refused token answers 400 and stores nothing. The token is stored encrypted and never shown again.',
        headers: idempotencyHeader,
        body: apiV1ConnectGitlabInput,
        response: createdResponses(codeHostConnectionSchema),
      },
    },
    async (request, reply) => {
      const sellerId = request.principal.sellerId;
      const connection = await connectGitlabToken(ctx, request.principal, request.body);
      return reply.status(201).send(envelope(await connectionView(ctx, sellerId, connection.id)));
    },
  );

  api.post(
    '/code-hosts/bitbucket',
    {
      config: { apiPermission: 'packages:write' },
      schema: {
        tags: ['Code hosts'],
        operationId: 'connectBitbucket',
        summary: 'Connect Bitbucket Cloud',
        description:
          'A workspace access token (workspace), or a repository access token (workspace and repository), with ' +
          'repository:read and webhook. App passwords are refused: Bitbucket ends them on 2026-06-09. Bitbucket is ' +
          'asked about the token before anything is stored; the token is stored encrypted and never shown again.',
        headers: idempotencyHeader,
        body: apiV1ConnectBitbucketInput,
        response: createdResponses(codeHostConnectionSchema),
      },
    },
    async (request, reply) => {
      const sellerId = request.principal.sellerId;
      const connection = await connectBitbucket(ctx, request.principal, request.body);
      return reply.status(201).send(envelope(await connectionView(ctx, sellerId, connection.id)));
    },
  );

  api.delete(
    '/code-hosts/:connectionId',
    {
      config: { apiPermission: 'packages:write' },
      schema: {
        tags: ['Code hosts'],
        operationId: 'deleteCodeHost',
        summary: 'Remove a connection',
        description:
          'Its packages keep serving every version already published, and sync no more until they are moved to ' +
          'another connection. The host’s token is forgotten; revoke it on the host too.',
        params: apiV1CodeHostParams,
        response: okResponses(deletedConnection),
      },
    },
    async (request) => {
      const { connectionId } = request.params;
      await removeConnection(ctx, request.principal, connectionId);
      return envelope({ id: connectionId, deleted: true as const });
    },
  );
}
