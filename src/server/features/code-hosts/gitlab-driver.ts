import { CodeHostError } from '../../adapters/codehost/code-host.js';
import { type GitlabOAuthClient, refreshGitlabTokens } from '../../adapters/codehost/gitlab-auth.js';
import { GitlabCodeHost } from '../../adapters/codehost/gitlab-code-host.js';
import type { AppContext } from '../../context.js';
import { AppError } from '../../http/errors.js';
import { decryptSecret, encryptSecret } from '../../lib/crypto.js';
import { lockConnectionRow, updateConnectionRow } from './code-hosts.repository.js';
import type { CodeHostConnection, ConnectionDriver } from './connection-driver.js';

// GitLab connections: an OAuth grant (read_api, read_repository) whose two-hour access token is renewed before it
// runs out, or a project/group access token the seller pasted. GitLab rotates refresh tokens: each renewal retires
// the one used, so the new one is stored in the same transaction that read the old one, with the row locked, and two
// processes renewing at once cannot both spend it (the second finds the fresh token and uses it).

/** Renew when less than this remains, so a sync that starts now never meets an expired token halfway. */
export const GITLAB_REFRESH_MARGIN_MS = 10 * 60_000;

export const GITLAB_REFRESH_REFUSED =
  'GitLab refused to renew Packgate’s access: the authorization was revoked in GitLab or has expired. Connect GitLab again on Code hosts; every published version is still served meanwhile.';

export function gitlabOAuthClient(ctx: AppContext): GitlabOAuthClient | undefined {
  const oauth = ctx.config.gitlab.oauth;
  return oauth ? { baseUrl: ctx.config.gitlab.url, ...oauth } : undefined;
}

export const gitlabDriver: ConnectionDriver = {
  kind: 'gitlab',
  async open(ctx, connection) {
    const baseUrl = connection.baseUrl ?? ctx.config.gitlab.url;
    const accessToken =
      connection.authMethod === 'oauth' ? await currentOAuthToken(ctx, connection) : storedSecret(ctx, connection);
    return { host: new GitlabCodeHost({ baseUrl }), user: { id: connection.ownerId, accessToken } };
  },
  describeAccess(connection) {
    const scopes = connection.scopes
      ? connection.scopes
          .split(/[\s,]+/)
          .filter(Boolean)
          .join(', ')
      : 'unknown';
    const how = connection.authMethod === 'oauth' ? 'OAuth' : 'Access token';
    const until =
      connection.authMethod === 'access_token' && connection.tokenExpiresAt
        ? `, expires ${connection.tokenExpiresAt.toISOString().slice(0, 10)}`
        : '';
    return `${how} scopes: ${scopes} (read-only${until})`;
  },
};

function storedSecret(ctx: AppContext, connection: CodeHostConnection): string {
  if (!connection.secretEncrypted)
    throw new CodeHostError('UNAUTHORIZED', 'GitLab holds no credential for this connection.');
  try {
    return decryptSecret(ctx.config.secretKey, connection.secretEncrypted);
  } catch {
    // Sealed under another SECRET_KEY: as good as none.
    throw new CodeHostError('UNAUTHORIZED', 'The stored GitLab credential cannot be read on this server.');
  }
}

function isFresh(connection: Pick<CodeHostConnection, 'tokenExpiresAt'>, now: Date): boolean {
  return (
    connection.tokenExpiresAt !== null && connection.tokenExpiresAt.getTime() - now.getTime() > GITLAB_REFRESH_MARGIN_MS
  );
}

/** The connection's OAuth access token, renewed first when it expires within the margin. */
async function currentOAuthToken(ctx: AppContext, connection: CodeHostConnection): Promise<string> {
  if (isFresh(connection, ctx.clock.now())) return storedSecret(ctx, connection);
  const client = gitlabOAuthClient(ctx);
  if (!client) {
    throw new AppError(
      'CONFLICT',
      'This connection signed in to GitLab through OAuth, which this server is no longer configured for. Set GITLAB_CLIENT_ID and GITLAB_CLIENT_SECRET again and restart, or connect GitLab with an access token.',
    );
  }
  let refused: CodeHostError | undefined;
  const token = await ctx.db.transaction(async (tx) => {
    const locked = await lockConnectionRow(tx, connection.id);
    if (!locked) throw new CodeHostError('UNAUTHORIZED', 'The GitLab connection was removed.');
    // Another process renewed it while we waited for the lock.
    if (isFresh(locked, ctx.clock.now())) return storedSecret(ctx, locked);
    if (!locked.refreshTokenEncrypted) {
      refused = new CodeHostError('UNAUTHORIZED', GITLAB_REFRESH_REFUSED);
      return undefined;
    }
    let refreshToken: string;
    try {
      refreshToken = decryptSecret(ctx.config.secretKey, locked.refreshTokenEncrypted);
    } catch {
      refused = new CodeHostError('UNAUTHORIZED', GITLAB_REFRESH_REFUSED);
      return undefined;
    }
    try {
      const renewed = await refreshGitlabTokens(client, refreshToken, ctx.clock.now());
      await updateConnectionRow(tx, connection.id, {
        secretEncrypted: encryptSecret(ctx.config.secretKey, renewed.accessToken),
        refreshTokenEncrypted: encryptSecret(ctx.config.secretKey, renewed.refreshToken),
        tokenExpiresAt: renewed.expiresAt,
        scopes: renewed.scopes.join(' '),
        updatedAt: ctx.clock.now(),
      });
      return renewed.accessToken;
    } catch (error) {
      if (error instanceof CodeHostError && error.code === 'UNAUTHORIZED') {
        refused = new CodeHostError('UNAUTHORIZED', GITLAB_REFRESH_REFUSED);
        return undefined;
      }
      throw error;
    }
  });
  if (token !== undefined) return token;
  // The caller (a sync, a listing) records the refusal: the connection breaks and the seller is told once.
  throw refused ?? new CodeHostError('UNAUTHORIZED', GITLAB_REFRESH_REFUSED);
}
