import { CodeHostError } from '../../adapters/codehost/code-host.js';
import type { AppContext } from '../../context.js';
import { AppError } from '../../http/errors.js';
import type { Principal } from '../../http/principal.js';
import { openSignedJson, signJson } from '../../lib/crypto.js';
import { selectInstallationConnections } from './code-hosts.repository.js';
import {
  type CodeHostConnection,
  createConnection,
  markConnectionWorking,
  updateConnection,
} from './code-hosts.service.js';
import { githubAppOf } from './github-app-driver.js';

// Connecting a GitHub App installation (issue 30 item 1). The seller leaves Code hosts for GitHub's install page with
// a `state` sealed to their account and the moment they left; GitHub sends them back to the Setup URL with
// `installation_id`, which anyone could forge (docs.github.com, "About the setup URL"). Before a connection is stored
// Packgate checks, with the App's own JWT, that:
// - the installation exists for this App and is not suspended (GET /app/installations/{id});
// - it was created or changed after this seller left for GitHub (its updated_at is later than the sealed moment), so
//   an installation id seen elsewhere cannot be claimed later;
// - no other seller has connected it.
// GitHub's strongest check, a user access token of the App listing the user's installations (GET /user/installations),
// needs the App's OAuth client credentials, which this server does not ask for.

const STATE_TTL_MS = 60 * 60_000;
/** GitHub's clock and ours may differ a little. */
const CLOCK_SKEW_MS = 2 * 60_000;

type InstallState = { ownerId: string; issuedAt: number };

function seal(ctx: AppContext, state: InstallState): string {
  return signJson(ctx.config.secretKey, 'github-app-state', state);
}

function unseal(ctx: AppContext, sealed: string): InstallState | undefined {
  const state = openSignedJson(ctx.config.secretKey, 'github-app-state', sealed) as Partial<InstallState> | undefined;
  return typeof state?.ownerId === 'string' && typeof state.issuedAt === 'number' ? (state as InstallState) : undefined;
}

/** Where the seller installs the App: GitHub's page for picking the account and repositories. */
export function githubAppInstallUrl(ctx: AppContext, ownerId: string): string {
  githubAppOf(ctx); // refuses when no App is configured
  const settings = ctx.config.githubApp!;
  const state = seal(ctx, { ownerId, issuedAt: ctx.clock.now().getTime() });
  // github.com names an App's pages /apps/<slug>; GitHub Enterprise Server /github-apps/<slug>.
  const prefix = new URL(settings.webUrl).host === 'github.com' ? 'apps' : 'github-apps';
  const url = new URL(`${settings.webUrl}/${prefix}/${settings.slug}/installations/new`);
  url.searchParams.set('state', state);
  return url.toString();
}

function refused(message: string): AppError {
  return new AppError('BAD_REQUEST', message, {
    title: 'GitHub App Not Connected',
    suggestion: 'Click Install the GitHub App on Code hosts and pick the repositories again.',
  });
}

/** Checks the installation GitHub sent the seller back with, then stores (or renews) its connection. */
export async function connectGithubAppInstallation(
  ctx: AppContext,
  actor: Principal,
  input: { installationId: string; state: string },
): Promise<CodeHostConnection> {
  const ownerId = actor.sellerId;
  const state = unseal(ctx, input.state);
  const now = ctx.clock.now().getTime();
  if (!state || state.ownerId !== ownerId || now - state.issuedAt > STATE_TTL_MS) {
    throw refused('This installation link did not start from your Code hosts page, or it is more than an hour old.');
  }
  const { client } = githubAppOf(ctx);
  let installation: Awaited<ReturnType<typeof client.getInstallation>>;
  try {
    installation = await client.getInstallation(input.installationId);
  } catch (error) {
    if (error instanceof CodeHostError && error.code === 'UNAUTHORIZED') {
      throw refused('GitHub does not know this installation of the App.');
    }
    throw error;
  }
  if (installation.suspendedAt) throw refused('This installation of the App is suspended on GitHub.');
  if (Date.parse(installation.updatedAt) < state.issuedAt - CLOCK_SKEW_MS) {
    throw refused('This installation was not made or changed after you left Packgate for GitHub.');
  }

  const externalId = String(installation.id);
  const holders = await selectInstallationConnections(ctx.db, externalId);
  if (holders.some((holder) => holder.ownerId !== ownerId)) {
    throw new AppError('ALREADY_EXISTS', 'Another Packgate account has already connected this installation.', {
      title: 'Installation In Use',
      suggestion: 'Install the App on another account or organisation, or ask the other account to remove it.',
    });
  }
  const login = installation.account?.login ?? 'GitHub account';
  const host = new URL(ctx.config.githubApp!.webUrl).host;
  const values = {
    label: `${login} on ${host}`,
    accountName: login,
    scopes: Object.entries(installation.permissions)
      .map(([permission, level]) => `${permission}:${level}`)
      .join(','),
  };
  const mine = holders[0];
  if (mine) {
    await updateConnection(ctx, mine.id, values);
    await markConnectionWorking(ctx, mine.id);
    return { ...mine, ...values, status: 'active', problem: null };
  }
  return createConnection(ctx, actor, {
    ownerId,
    kind: 'github_app',
    authMethod: 'installation',
    externalId,
    baseUrl: ctx.config.githubApp!.webUrl === 'https://github.com' ? null : ctx.config.githubApp!.webUrl,
    createdById: actor.person?.id ?? null,
    ...values,
  });
}

/** The connections of an installation (the App's events name the installation, not the seller). */
export async function findInstallationConnections(
  ctx: Pick<AppContext, 'db'>,
  installationId: string,
): Promise<CodeHostConnection[]> {
  return selectInstallationConnections(ctx.db, installationId);
}

/** Drops the installation's cached token (uninstalled, suspended): the next opening asks GitHub again. */
export function forgetInstallationToken(ctx: AppContext, installationId: string): void {
  if (ctx.config.githubApp) githubAppOf(ctx).client.forget(installationId);
}
