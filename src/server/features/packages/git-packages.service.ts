import { COMPOSER_NAME_PATTERN, type CreatePackageResponse } from '../../../contract/packages.js';
import type { CodeHostUser } from '../../adapters/codehost/code-host.js';
import { repositoryFullNameOf } from '../../adapters/codehost/git-server-code-host.js';
import { generateDeployKey } from '../../adapters/git/deploy-key.js';
import { hostKeyFingerprint, pinSshHostKey, withoutTrailing } from '../../adapters/git/git-remote.js';
import type { AppContext } from '../../context.js';
import { AppError } from '../../http/errors.js';
import { organizationOf, type Principal } from '../../http/principal.js';
import { encryptSecret } from '../../lib/crypto.js';
import { connectGitServer, gitServerHost } from '../code-hosts/git-connect.service.js';
import { gitServerAppError } from './git-failures.js';
import {
  assertNameFree,
  assertRepositoryNotAdded,
  checkRoomForNewPackage,
  insertPackageAudited,
} from './package-create.service.js';
import type { PackageRow } from './package-mirror.js';
import { syncPackage } from './package-sync.js';
import { requireManifestName } from './package-versions.js';
import { type PackageAccount, presentPackage } from './packages.service.js';

// A package from any git server by its URL (issue 30 item 4), for the seller's Add Package and API v1. Over HTTPS the
// server must accept the user name and password before anything is stored, and composer.json names the package
// unless a name is given. Over SSH Packgate generates the package's deploy key, pins the server's host key on this
// first contact, and answers the public key: the first sync waits until the seller added it (Sync now).

export type CreateGitPackageValues = {
  repositoryUrl: string;
  credentials?: { username: string; password: string };
  packageName?: string;
  description: string | null;
  isActive: boolean;
};

const USER_NAME = /^[A-Za-z0-9._-]{1,100}$/;
const HOST_NAME = /^[A-Za-z0-9.-]{1,253}$/;

/** `git@host:acme/widget.git` (scp-like, as git accepts it) written as the ssh URL it means; undefined otherwise. */
function scpLikeUrl(raw: string): string | undefined {
  if (raw.includes('://')) return undefined;
  const at = raw.indexOf('@');
  const colon = raw.indexOf(':', at + 1);
  if (at <= 0 || colon < 0) return undefined;
  const [user, host, rest] = [raw.slice(0, at), raw.slice(at + 1, colon), raw.slice(colon + 1)];
  if (!USER_NAME.test(user) || !HOST_NAME.test(host) || rest === '') return undefined;
  return `ssh://${user}@${host}${rest.startsWith('/') ? '' : '/'}${rest}`;
}

function badUrl(message: string): AppError {
  return new AppError('BAD_REQUEST', `repositoryUrl: ${message}`, {
    suggestion:
      'Give the URL you clone with: https://git.example.com/acme/widget.git or ssh://git@git.example.com/acme/widget.git.',
  });
}

/** The URL git will read, with `git@host:path` written as ssh://; BAD_REQUEST naming repositoryUrl otherwise. */
export function parseRepositoryUrl(raw: string, allowPlainHttp: boolean): URL {
  const text = scpLikeUrl(raw) ?? raw;
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw badUrl('not a repository URL.');
  }
  const plainHttpAllowed = allowPlainHttp && url.protocol === 'http:';
  if (url.protocol !== 'https:' && url.protocol !== 'ssh:' && !plainHttpAllowed) {
    throw badUrl('the URL must start with https:// or ssh:// (or be written git@host:path).');
  }
  if (url.search || url.hash) throw badUrl('the URL must not contain ? or #.');
  if (url.protocol === 'ssh:') {
    if (!url.username) throw badUrl('an ssh URL names its user, e.g. ssh://git@git.example.com/acme/widget.git.');
    if (url.password) throw badUrl('the URL must not contain a password.');
  } else if (url.username || url.password) {
    throw badUrl('put the user name and password in credentials, not in the URL.');
  }
  if (withoutTrailing(url.pathname, '/') === '') throw badUrl('the URL names no repository.');
  return url;
}

/** `acme/widget` from `…/acme/widget.git`, when those two segments make a Composer name. */
function nameFromPath(url: URL): string | undefined {
  const segments = url.pathname
    .replace(/\.git\/?$/, '')
    .split('/')
    .filter(Boolean);
  const candidate = segments.slice(-2).join('/').toLowerCase();
  return segments.length >= 2 && COMPOSER_NAME_PATTERN.test(candidate) ? candidate : undefined;
}

/** The package name composer.json of the default branch declares, checked against the one given. */
function nameFromManifest(text: string | undefined, given: string | undefined, fullName: string): string {
  const declared = requireManifestName(text, {
    missing: `repositoryUrl: ${fullName} has no composer.json on its default branch.`,
    unusable: (problem) => `repositoryUrl: the composer.json of ${fullName} is unusable: ${problem}.`,
  });
  if (given && declared && declared !== given) {
    throw new AppError(
      'BAD_REQUEST',
      `packageName: the composer.json of ${fullName} names the package "${declared}", not "${given}"; Composer would refuse the mismatch.`,
      { title: 'Package Name Mismatch', suggestion: `Use "${declared}", or leave packageName out.` },
    );
  }
  const name = given ?? declared;
  if (!name) {
    throw new AppError('BAD_REQUEST', `packageName: the composer.json of ${fullName} declares no name.`, {
      suggestion: 'Give packageName, or add a name to composer.json.',
    });
  }
  return name;
}

type Prepared = {
  name: string;
  connectionId: string;
  keys: Pick<PackageRow, 'deployKeyPublic' | 'deployKeyPrivateEncrypted' | 'sshHostKey' | 'sshHostKeyFingerprint'>;
};

async function prepareHttps(
  ctx: AppContext,
  owner: PackageAccount,
  actor: Principal,
  url: URL,
  input: CreateGitPackageValues,
): Promise<Prepared> {
  const host = gitServerHost(ctx);
  const user: CodeHostUser = { id: owner.id, ...input.credentials };
  const fullName = repositoryFullNameOf(url);
  const place = { host: url.host, isSsh: false };
  const text = await (async () => {
    const repository = await host.getRepository(user, url.href);
    return host.readDefaultBranchFile(user, repository, 'composer.json');
  })().catch((error: unknown) => {
    throw gitServerAppError(error, place);
  });
  const name = nameFromManifest(text, input.packageName, fullName);
  const connection = await connectGitServer(
    ctx,
    actor,
    owner.id,
    input.credentials
      ? { authMethod: 'basic', origin: url.origin, host: url.host, ...input.credentials }
      : { authMethod: 'none', origin: url.origin, host: url.host },
  );
  return {
    name,
    connectionId: connection.id,
    keys: { deployKeyPublic: null, deployKeyPrivateEncrypted: null, sshHostKey: null, sshHostKeyFingerprint: null },
  };
}

async function prepareSsh(
  ctx: AppContext,
  owner: PackageAccount,
  actor: Principal,
  url: URL,
  input: CreateGitPackageValues,
): Promise<Prepared> {
  if (input.credentials) {
    throw new AppError('BAD_REQUEST', 'credentials: an ssh URL is read with a deploy key, not a password.', {
      suggestion: 'Leave credentials out; add the deploy key from the answer to the repository.',
    });
  }
  const name = input.packageName ?? nameFromPath(url);
  if (!name) {
    throw new AppError('BAD_REQUEST', 'packageName: the URL does not end in vendor/package; give the name.', {
      suggestion: 'Give packageName as composer.json of the repository names it.',
    });
  }
  await assertNameFree(ctx, owner.id, name);
  const key = generateDeployKey(`packgate ${name}`);
  const place = { host: url.host, isSsh: true };
  const knownHosts = await (async () => {
    const access = await gitServerHost(ctx).accessFor({ id: owner.id, sshPrivateKey: key.privateKey }, url);
    return pinSshHostKey(url.href, access);
  })().catch((error: unknown) => {
    throw gitServerAppError(error, place);
  });
  const connection = await connectGitServer(ctx, actor, owner.id, {
    authMethod: 'ssh_key',
    origin: `ssh://${url.host}`,
    host: url.host,
  });
  return {
    name,
    connectionId: connection.id,
    keys: {
      deployKeyPublic: key.publicKey,
      deployKeyPrivateEncrypted: encryptSecret(ctx.config.secretKey, key.privateKey),
      sshHostKey: knownHosts,
      sshHostKeyFingerprint: hostKeyFingerprint(knownHosts),
    },
  };
}

/** Creates the package from a git server's URL; over HTTPS its first sync starts at once. */
export async function createGitPackage(
  ctx: AppContext,
  actor: Principal,
  input: CreateGitPackageValues,
): Promise<CreatePackageResponse> {
  const owner = organizationOf(actor);
  const limit = await checkRoomForNewPackage(ctx, owner);
  const url = parseRepositoryUrl(input.repositoryUrl, ctx.config.codeHostAllowPrivateNetworks);
  if (input.packageName) await assertNameFree(ctx, owner.id, input.packageName);
  await assertRepositoryNotAdded(ctx, owner.id, { codeHost: 'git', id: url.href, label: url.href });
  const isSsh = url.protocol === 'ssh:';
  const prepared = isSsh
    ? await prepareSsh(ctx, owner, actor, url, input)
    : await prepareHttps(ctx, owner, actor, url, input);
  await assertNameFree(ctx, owner.id, prepared.name);

  const now = ctx.clock.now();
  const row = await insertPackageAudited(ctx, actor, limit, {
    ownerId: owner.id,
    codeHost: 'git',
    connectionId: prepared.connectionId,
    repositoryUrl: url.href,
    repositoryId: url.href,
    repositoryFullName: repositoryFullNameOf(url),
    name: prepared.name,
    description: input.description,
    isActive: input.isActive,
    ...prepared.keys,
    // Over SSH nothing can be read before the seller adds the key: the package says so until Sync now.
    syncError: isSsh
      ? 'Add the deploy key shown with this package to the repository as a read-only deploy key, then click Sync now.'
      : null,
    createdAt: now,
    updatedAt: now,
    metadataUpdatedAt: now,
  });
  const taskId = isSsh ? null : (await syncPackage(ctx, row.id, { userId: owner.id })).taskId;
  return { ...presentPackage(row, 0), taskId };
}
