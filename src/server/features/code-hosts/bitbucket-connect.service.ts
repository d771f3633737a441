import { BITBUCKET_SLUG, fetchBitbucketTarget } from '../../adapters/codehost/bitbucket-code-host.js';
import { CodeHostError } from '../../adapters/codehost/code-host.js';
import type { AppContext } from '../../context.js';
import { AppError } from '../../http/errors.js';
import type { Principal } from '../../http/principal.js';
import { encryptSecret } from '../../lib/crypto.js';
import type { CodeHostConnection } from './connection-driver.js';
import { saveConnection } from './save-connection.js';

// Connecting Bitbucket Cloud with a workspace or repository access token (scopes: repository read, and webhooks so
// that pushes are heard). App passwords are refused: Bitbucket ends them on 2026-06-09, and they act as a person
// with all of that person's access, which is more than Packgate needs.

export const APP_PASSWORDS_ENDED =
  'Bitbucket app passwords are not accepted: Bitbucket ends them on 2026-06-09. Create a workspace or repository access token instead (Repository settings or Workspace settings → Access tokens) with the Repositories: Read and Webhooks: Read and write scopes.';

export type ConnectBitbucketValues = { workspace: string; repository?: string; token: string; username?: string };

/** App passwords start with ATBB; access tokens with ATCTT. Someone giving a user name means a password, too. */
function looksLikeAppPassword(input: ConnectBitbucketValues): boolean {
  return Boolean(input.username) || /^ATBB/.test(input.token);
}

/** Connects (or reconnects) a Bitbucket workspace or repository, after checking the token with Bitbucket. */
export async function connectBitbucket(
  ctx: AppContext,
  actor: Principal,
  input: ConnectBitbucketValues,
): Promise<CodeHostConnection> {
  const ownerId = actor.sellerId;
  if (looksLikeAppPassword(input)) throw new AppError('BAD_REQUEST', APP_PASSWORDS_ENDED);
  const workspace = input.workspace.trim().toLowerCase();
  const repository = input.repository?.trim().toLowerCase() || undefined;
  if (!BITBUCKET_SLUG.test(workspace)) {
    throw new AppError('BAD_REQUEST', 'workspace: give the workspace ID as it appears in bitbucket.org/<workspace>.');
  }
  if (repository !== undefined && !BITBUCKET_SLUG.test(repository)) {
    throw new AppError('BAD_REQUEST', 'repository: give the repository slug as it appears in its address.');
  }
  let target: Awaited<ReturnType<typeof fetchBitbucketTarget>>;
  try {
    target = await fetchBitbucketTarget(
      { apiUrl: ctx.config.bitbucket.apiUrl, workspace, repositorySlug: repository },
      input.token,
    );
  } catch (error) {
    if (error instanceof CodeHostError && error.code === 'UNAUTHORIZED') {
      throw new AppError(
        'BAD_REQUEST',
        'Bitbucket refused this token: it is wrong, revoked or lacks the Repositories: Read scope.',
        {
          suggestion: repository
            ? `Create a repository access token in ${workspace}/${repository} → Repository settings → Access tokens.`
            : `Create a workspace access token in ${workspace} → Workspace settings → Access tokens.`,
        },
      );
    }
    if (error instanceof CodeHostError && error.code === 'NOT_FOUND') {
      throw new AppError('BAD_REQUEST', `${error.message}. Check the workspace and repository.`);
    }
    throw error;
  }
  const externalId = repository ? `${workspace}/${repository}` : workspace;
  return saveConnection(ctx, actor, {
    ownerId,
    kind: 'bitbucket',
    label: repository ? `${externalId} on Bitbucket` : `${workspace} workspace on Bitbucket`,
    authMethod: 'access_token',
    baseUrl: null,
    externalId,
    accountName: target.workspaceName,
    username: 'x-token-auth',
    secretEncrypted: encryptSecret(ctx.config.secretKey, input.token),
    refreshTokenEncrypted: null,
    tokenExpiresAt: null,
    scopes: target.scopes,
    createdById: actor.person?.id ?? null,
  });
}
