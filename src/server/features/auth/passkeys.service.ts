import type { AuthenticationResponseJSON, RegistrationResponseJSON } from '@simplewebauthn/server';
import type { Passkey } from '../../../contract/security.js';
import type { AppContext } from '../../context.js';
import { AppError } from '../../http/errors.js';
import type { Account } from '../../http/principal.js';
import * as repository from './passkeys.repository.js';
import { replaceRecoveryCodes } from './recovery-codes.service.js';
import { hasSecondFactor } from './second-factor.service.js';

// Passkeys (WebAuthn) for sellers and admins (issue 33 item 5), through @simplewebauthn/server: the maintained,
// widely used implementation of the W3C verification steps (attestation 'none', COSE keys, signature counters),
// which a hand-written version would only get wrong. The relying party is PUBLIC_URL's host and the expected origin
// PUBLIC_URL's origin, from configuration, never from a request's headers. Every ceremony's challenge is stored,
// bound to its person (or to nobody, for a sign-in that has not named one) and its purpose, valid five minutes, and
// taken by one DELETE ... RETURNING, so a response is verified against it once at most.

/**
 * @simplewebauthn/server, loaded the first time a passkey is registered or used: it holds about 20 MB resident, which
 * most servers (and every Composer request) never need (issue 34 item 3).
 */
const webauthn = () => import('@simplewebauthn/server');

const CHALLENGE_TTL_MS = 5 * 60_000;
const MAX_PASSKEYS = 20;

function relyingParty(ctx: AppContext): { rpID: string; origin: string } {
  const url = new URL(ctx.config.publicUrl);
  return { rpID: url.hostname, origin: url.origin };
}

/** The WebAuthn user handle of a person: their id's bytes (never their e-mail address). */
function userHandle(userId: string): string {
  return Buffer.from(userId, 'utf8').toString('base64url');
}

async function storeChallenge(
  ctx: AppContext,
  purpose: 'registration' | 'authentication',
  challenge: string,
  userId: string | null,
): Promise<void> {
  const now = ctx.clock.now();
  await repository.storeChallengeRow(ctx.db, {
    purpose,
    challenge,
    userId,
    createdAt: now,
    expiresAt: new Date(now.getTime() + CHALLENGE_TTL_MS),
  });
}

/** The challenge the browser signed (from clientDataJSON), if it is unread JSON with one. */
function signedChallenge(clientDataJSON: unknown): string | undefined {
  if (typeof clientDataJSON !== 'string' || clientDataJSON.length > 20_000) return undefined;
  try {
    const parsed = JSON.parse(Buffer.from(clientDataJSON, 'base64url').toString('utf8')) as { challenge?: unknown };
    return typeof parsed.challenge === 'string' ? parsed.challenge : undefined;
  } catch {
    return undefined;
  }
}

/** Takes the stored challenge the response signed, once: unknown, used, expired or someone else's answers undefined. */
async function takeChallenge(
  ctx: AppContext,
  purpose: 'registration' | 'authentication',
  clientDataJSON: unknown,
  userId: string | null,
): Promise<string | undefined> {
  const challenge = signedChallenge(clientDataJSON);
  if (!challenge) return undefined;
  return repository.takeChallengeRow(ctx.db, challenge, purpose, userId, ctx.clock.now());
}

/** What every ceremony's response is verified against: its taken challenge, PUBLIC_URL's origin and host. */
type CeremonyExpectations = {
  expectedChallenge: string;
  expectedOrigin: string;
  expectedRPID: string;
  requireUserVerification: false;
};

/**
 * Verifies a ceremony's response through @simplewebauthn/server against its challenge and the relying party; a
 * response the library rejects is thrown as `refusal` with the library's reason (at most 200 characters).
 */
async function verifyCeremony<T>(
  ctx: AppContext,
  challenge: string,
  refusal: (why: string) => AppError,
  verify: (lib: Awaited<ReturnType<typeof webauthn>>, expected: CeremonyExpectations) => Promise<T>,
): Promise<T> {
  const { rpID, origin } = relyingParty(ctx);
  const lib = await webauthn();
  try {
    return await verify(lib, {
      expectedChallenge: challenge,
      expectedOrigin: origin,
      expectedRPID: rpID,
      requireUserVerification: false,
    });
  } catch (error) {
    throw refusal(error instanceof Error ? error.message.slice(0, 200) : 'invalid response');
  }
}

const notVerified = (what: string) =>
  new AppError('BAD_REQUEST', `The passkey could not be verified: ${what}.`, {
    suggestion: 'Start again from the button; each passkey prompt works once and for five minutes.',
  });

export async function passkeyRegistrationOptions(ctx: AppContext, person: Account) {
  const existing = await repository.selectCredentialsOf(ctx.db, person.id);
  if (existing.length >= MAX_PASSKEYS) {
    throw new AppError('CONFLICT', `You already have ${MAX_PASSKEYS} passkeys; remove one before adding another.`);
  }
  const { rpID } = relyingParty(ctx);
  const { generateRegistrationOptions } = await webauthn();
  const options = await generateRegistrationOptions({
    rpName: 'Packgate',
    rpID,
    userID: Buffer.from(person.id, 'utf8'),
    userName: person.email ?? person.githubUsername ?? person.slug,
    userDisplayName: person.displayName ?? person.email ?? person.slug,
    attestationType: 'none',
    excludeCredentials: existing.map((row) => ({ id: row.credentialId, transports: row.transports })),
    authenticatorSelection: { residentKey: 'required', userVerification: 'preferred' },
  });
  await storeChallenge(ctx, 'registration', options.challenge, person.id);
  return options;
}

/**
 * Verifies a registration for `person` and stores the passkey. Answers the first set of recovery codes when this is
 * the person's first second factor. Refused, nothing stored: a challenge that is not this person's, used or expired,
 * a wrong origin or relying party, a credential already registered.
 */
export async function registerPasskey(
  ctx: AppContext,
  person: Account,
  input: { response: Record<string, unknown>; name: string },
): Promise<{ passkey: Passkey; recoveryCodes?: string[] }> {
  const response = input.response as unknown as RegistrationResponseJSON;
  const challenge = await takeChallenge(ctx, 'registration', response.response?.clientDataJSON, person.id);
  if (!challenge) throw notVerified('the prompt it answers is unknown, used, expired or not yours');
  const verification = await verifyCeremony(ctx, challenge, notVerified, (lib, expected) =>
    lib.verifyRegistrationResponse({ response, ...expected }),
  );
  if (!verification.verified) throw notVerified('the signature does not match');
  const { credential } = verification.registrationInfo;
  const hadFactor = await hasSecondFactor(ctx, person.id);
  const now = ctx.clock.now();
  return ctx.db.transaction(async (tx) => {
    const row = await repository.insertPasskeyIfNew(tx, {
      userId: person.id,
      credentialId: credential.id,
      publicKey: Buffer.from(credential.publicKey).toString('base64url'),
      counter: credential.counter,
      transports: credential.transports ?? [],
      name: input.name,
      createdAt: now,
    });
    if (!row) throw new AppError('ALREADY_EXISTS', 'This passkey is already registered.');
    const recoveryCodes = hadFactor ? undefined : await replaceRecoveryCodes(tx, person.id, now);
    return { passkey: presentPasskey(row), ...(recoveryCodes ? { recoveryCodes } : {}) };
  });
}

/**
 * Options for a passkey sign-in: for the person whose second factor is pending, their own passkeys; otherwise any
 * discoverable passkey of this site (the browser offers the person's own).
 */
export async function passkeyAuthenticationOptions(ctx: AppContext, pendingPerson?: Account) {
  const { rpID } = relyingParty(ctx);
  const allowCredentials = pendingPerson
    ? (await repository.selectCredentialsOf(ctx.db, pendingPerson.id)).map((row) => ({
        id: row.credentialId,
        transports: row.transports,
      }))
    : undefined;
  const { generateAuthenticationOptions } = await webauthn();
  const options = await generateAuthenticationOptions({ rpID, allowCredentials, userVerification: 'preferred' });
  await storeChallenge(ctx, 'authentication', options.challenge, pendingPerson?.id ?? null);
  return options;
}

/**
 * Verifies a passkey sign-in and answers whose it is. With `pendingPerson` (the second step), the passkey must be
 * theirs. Refused, nothing written: an unknown passkey, one of another person, a challenge used, expired or issued
 * for another, a wrong origin, a signature that does not verify.
 */
export async function authenticateWithPasskey(
  ctx: AppContext,
  input: { response: Record<string, unknown> },
  pendingPerson?: Account,
): Promise<Account> {
  const response = input.response as unknown as AuthenticationResponseJSON;
  const refused = (why: string) =>
    new AppError('UNAUTHENTICATED', `Sign-in with this passkey was refused: ${why}.`, {
      suggestion: 'Try again, or sign in with an e-mailed link.',
    });
  const found = await repository.findPasskeyWithPerson(ctx.db, String(response.id));
  if (!found) throw refused('this passkey is not registered here');
  if (pendingPerson && found.user.id !== pendingPerson.id) throw refused('this passkey belongs to someone else');
  const handle = response.response?.userHandle;
  if (handle && handle !== userHandle(found.user.id)) throw refused('this passkey belongs to someone else');
  if (found.user.closedAt) throw refused('this account is closed');
  const challenge = await takeChallenge(
    ctx,
    'authentication',
    response.response?.clientDataJSON,
    pendingPerson?.id ?? null,
  );
  if (!challenge) throw refused('the prompt it answers is unknown, used or expired');
  const verification = await verifyCeremony(ctx, challenge, refused, (lib, expected) =>
    lib.verifyAuthenticationResponse({
      response,
      ...expected,
      credential: {
        id: found.passkey.credentialId,
        publicKey: Buffer.from(found.passkey.publicKey, 'base64url'),
        counter: found.passkey.counter,
        transports: found.passkey.transports,
      },
    }),
  );
  if (!verification.verified) throw refused('the signature does not match');
  await repository.recordPasskeyUse(
    ctx.db,
    found.passkey.id,
    verification.authenticationInfo.newCounter,
    ctx.clock.now(),
  );
  return found.user;
}

function presentPasskey(row: repository.PasskeyRow): Passkey {
  return {
    id: row.id,
    name: row.name,
    createdAt: row.createdAt.toISOString(),
    lastUsedAt: row.lastUsedAt?.toISOString() ?? null,
  };
}

export async function listPasskeys(ctx: AppContext, userId: string): Promise<Passkey[]> {
  const rows = await repository.selectPasskeysOf(ctx.db, userId);
  return rows.map(presentPasskey);
}

export async function renamePasskey(ctx: AppContext, userId: string, passkeyId: string, name: string) {
  const row = await repository.renamePasskeyOf(ctx.db, userId, passkeyId, name);
  if (!row) throw new AppError('NOT_FOUND', 'Passkey not found.');
  return presentPasskey(row);
}

export async function deletePasskey(ctx: AppContext, userId: string, passkeyId: string): Promise<void> {
  if (!(await repository.deletePasskeyOf(ctx.db, userId, passkeyId)))
    throw new AppError('NOT_FOUND', 'Passkey not found.');
}
