import { Secret, TOTP } from 'otpauth';
import QRCode from 'qrcode';
import type { TotpEnrolment } from '../../../contract/security.js';
import type { AppContext } from '../../context.js';
import { AppError } from '../../http/errors.js';
import type { Account } from '../../http/principal.js';
import { decryptSecret, encryptSecret } from '../../lib/crypto.js';
import { replaceRecoveryCodes } from './recovery-codes.service.js';
import * as repository from './second-factor.repository.js';
import { hasSecondFactor } from './second-factor.service.js';

// The authenticator app (TOTP, RFC 6238) of issue 33 item 5, through `otpauth`: maintained, dependency-free, typed,
// and its validate() answers the matching step's offset, which the "never twice" rule needs (otplib's v12 line went
// unmaintained for years and answers only true/false). QR codes through `qrcode`, the long-standing generator,
// as SVG (no canvas). The secret is sealed with the app's AES-256-GCM helper; it is shown once, at enrolment.
// A code is accepted at most once: the step it matched is stored, and only a later step is accepted after it.

const PERIOD_SECONDS = 30;
/** One step either side, for clocks that drift. */
const WINDOW = 1;

function totpFor(person: Account, secret: Secret): TOTP {
  return new TOTP({
    issuer: 'Packgate',
    label: person.email ?? person.githubUsername ?? person.slug,
    algorithm: 'SHA1',
    digits: 6,
    period: PERIOD_SECONDS,
    secret,
  });
}

/** The step a code matches now, or undefined. */
function matchingStep(ctx: AppContext, totp: TOTP, code: string): number | undefined {
  const timestamp = ctx.clock.now().getTime();
  const delta = totp.validate({ token: code, timestamp, window: WINDOW });
  if (delta === null) return undefined;
  return Math.floor(timestamp / 1000 / PERIOD_SECONDS) + delta;
}

const wrongCode = () =>
  new AppError('VALIDATION_FAILED', 'That code is not valid. Enter the current code from your authenticator app.', {
    suggestion: 'Check that your device clock is right; a code works once.',
  });

/** Starts (or restarts) an enrolment: a new secret, not usable until a first code confirms it. */
export async function beginTotpEnrolment(ctx: AppContext, person: Account): Promise<TotpEnrolment> {
  if (await repository.findTotpConfirmedAt(ctx.db, person.id)) {
    throw new AppError('CONFLICT', 'An authenticator app is already set up. Remove it first to set up another.');
  }
  const secret = new Secret({ size: 20 });
  const sealed = encryptSecret(ctx.config.secretKey, secret.base32);
  const now = ctx.clock.now();
  await repository.upsertPendingTotp(ctx.db, person.id, sealed, now);
  const uri = totpFor(person, secret).toString();
  const svg = await QRCode.toString(uri, { type: 'svg', margin: 1, errorCorrectionLevel: 'M' });
  return { uri, secret: secret.base32, qrCode: `data:image/svg+xml;base64,${Buffer.from(svg).toString('base64')}` };
}

async function readSecret(ctx: AppContext, person: Account, confirmed: boolean) {
  const row = await repository.findTotp(ctx.db, person.id, confirmed);
  if (!row) return undefined;
  return { row, totp: totpFor(person, Secret.fromBase32(decryptSecret(ctx.config.secretKey, row.secretSealed))) };
}

/** Confirms an enrolment with its first code; answers the first recovery codes when this is the first factor. */
export async function confirmTotpEnrolment(
  ctx: AppContext,
  person: Account,
  code: string,
): Promise<{ recoveryCodes?: string[] }> {
  const pending = await readSecret(ctx, person, false);
  if (!pending) throw new AppError('NOT_FOUND', 'There is no authenticator app set-up in progress. Start again.');
  const step = matchingStep(ctx, pending.totp, code);
  if (step === undefined) throw wrongCode();
  const hadFactor = await hasSecondFactor(ctx, person.id);
  const now = ctx.clock.now();
  return ctx.db.transaction(async (tx) => {
    if (!(await repository.confirmPendingTotp(tx, person.id, step, now)))
      throw new AppError('CONFLICT', 'The authenticator app was already set up.');
    return hadFactor ? {} : { recoveryCodes: await replaceRecoveryCodes(tx, person.id, now) };
  });
}

/**
 * Checks a code of the person's confirmed authenticator app and records its step in the same statement, so that a
 * code (or an earlier one) is never accepted twice, even by two requests at once.
 */
export async function verifyTotpCode(ctx: AppContext, person: Account, code: string): Promise<void> {
  const enrolled = await readSecret(ctx, person, true);
  if (!enrolled) throw new AppError('NOT_FOUND', 'No authenticator app is set up for this account.');
  const step = matchingStep(ctx, enrolled.totp, code);
  if (step === undefined) throw wrongCode();
  if (!(await repository.advanceTotpStep(ctx.db, person.id, step))) {
    throw new AppError('VALIDATION_FAILED', 'That code was already used. Wait for the next code from your app.');
  }
}

export async function removeTotp(ctx: AppContext, userId: string): Promise<void> {
  if (!(await repository.deleteTotp(ctx.db, userId)))
    throw new AppError('NOT_FOUND', 'No authenticator app is set up for this account.');
}
