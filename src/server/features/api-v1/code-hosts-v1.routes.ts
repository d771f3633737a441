import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { apiV1DeletedSchema } from '../../../contract/api-v1.js';
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
import { apiV1Operations, deletedAnswer } from './api-v1-operations.js';
import { idempotencyHeader } from './openapi.js';

// API v1: code hosts (issue 30), so a seller's own tooling connects GitLab and Bitbucket Cloud with an access token,
// sees what each connection may read, and removes one. A package is then added from a connection with
// POST /packages {connectionId, githubRepoId}; any git server needs no connection (POST /packages {repositoryUrl}).

/** The connection just stored, as GET /code-hosts lists it (with what it may access and its package count). */
async function connectionView(ctx: AppContext, sellerId: string, connectionId: string): Promise<CodeHostConnection> {
  const view = (await listConnections(ctx, sellerId)).find((connection) => connection.id === connectionId);
  if (!view) throw new AppError('NOT_FOUND', 'Code host connection not found');
  return view;
}

export async function codeHostsV1Routes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const codeHostsApi = apiV1Operations(app, 'Code hosts');

  codeHostsApi.get(
    '/code-hosts',
    {
      permission: 'packages:read',
      operationId: 'listCodeHosts',
      summary: 'List code host connections',
      description:
        'Every connection your packages can come from, with what each may access, whether it works (status, ' +
        'problem) and how many packages sync through it. Tokens and keys are never returned.',
      answer: z.array(codeHostConnectionSchema),
    },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      return listConnections(ctx, request.principal.sellerId);
    },
  );

  codeHostsApi.get(
    '/code-hosts/:connectionId/repositories',
    {
      permission: 'packages:read',
      operationId: 'listCodeHostRepositories',
      summary: 'List a connection’s repositories',
      description:
        'The repositories the connection may read, asked of the host now. Add one as a package with ' +
        'POST /packages and {connectionId, githubRepoId: its id, packageName}. A host that refuses the ' +
        'connection’s token answers 401 with what to do.',
      params: apiV1CodeHostParams,
      answer: connectionRepositoryList,
    },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      return withConnectionErrors(() =>
        listConnectionRepositories(ctx, request.principal.sellerId, request.params.connectionId),
      );
    },
  );

  codeHostsApi.post(
    '/code-hosts/gitlab',
    {
      permission: 'packages:write',
      operationId: 'connectGitlab',
      summary: 'Connect GitLab',
      description:
        'token: a project, group or personal access token with read_api and read_repository; baseUrl: your ' +
        'self-managed GitLab, left out for the server’s default. GitLab is asked about the token before anything ' +
        'is stored; a refused token answers 400 and stores nothing. The token is stored encrypted and never shown again.',
      headers: idempotencyHeader,
      body: apiV1ConnectGitlabInput,
      answer: codeHostConnectionSchema,
      status: 201,
    },
    async (request) => {
      const connection = await connectGitlabToken(ctx, request.principal, request.body);
      return connectionView(ctx, request.principal.sellerId, connection.id);
    },
  );

  codeHostsApi.post(
    '/code-hosts/bitbucket',
    {
      permission: 'packages:write',
      operationId: 'connectBitbucket',
      summary: 'Connect Bitbucket Cloud',
      description:
        'A workspace access token (workspace), or a repository access token (workspace and repository), with ' +
        'repository:read and webhook. App passwords are refused: Bitbucket ends them on 2026-06-09. Bitbucket is ' +
        'asked about the token before anything is stored; the token is stored encrypted and never shown again.',
      headers: idempotencyHeader,
      body: apiV1ConnectBitbucketInput,
      answer: codeHostConnectionSchema,
      status: 201,
    },
    async (request) => {
      const connection = await connectBitbucket(ctx, request.principal, request.body);
      return connectionView(ctx, request.principal.sellerId, connection.id);
    },
  );

  codeHostsApi.delete(
    '/code-hosts/:connectionId',
    {
      permission: 'packages:write',
      operationId: 'deleteCodeHost',
      summary: 'Remove a connection',
      description:
        'Its packages keep serving every version already published, and sync no more until they are moved to ' +
        'another connection. The host’s token is forgotten; revoke it on the host too.',
      params: apiV1CodeHostParams,
      answer: apiV1DeletedSchema,
    },
    async (request) => {
      const { connectionId } = request.params;
      await removeConnection(ctx, request.principal, connectionId);
      return deletedAnswer(connectionId);
    },
  );
}
