import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { authUser, successResponse } from '../../../contract/auth.js';
import {
  passkeyAuthenticationRequest,
  passkeyIdParams,
  passkeyRegistrationRequest,
  passkeySchema,
  recoveryCodeRequest,
  recoveryCodesResponse,
  renamePasskeyRequest,
  secondFactorResult,
  securityOverview,
  sessionIdParams,
  signedInSessionsResponse,
  totpCodeRequest,
  totpEnrolmentResponse,
  webauthnOptions,
} from '../../../contract/security.js';
import type { AppContext } from '../../context.js';
import { AppError } from '../../http/errors.js';
import { signedInRoutes } from '../../http/guarded-routes.js';
import { type RequestAuth, requireUser, startSession } from '../../http/session.js';
import {
  completeSecondFactor,
  endOtherSignedInSessions,
  endSignedInSession,
  liftEnrolmentRequirement,
  listSignedInSessions,
} from '../../http/session-second-factor.js';
import { presentAuthUser } from '../../http/session-user.js';
import {
  authenticateWithPasskey,
  deletePasskey,
  listPasskeys,
  passkeyAuthenticationOptions,
  passkeyRegistrationOptions,
  registerPasskey,
  renamePasskey,
} from './passkeys.service.js';
import { countUnusedRecoveryCodes, replaceRecoveryCodes, useRecoveryCode } from './recovery-codes.service.js';
import { hasConfirmedTotp, hasSecondFactor, isSecondFactorRequired } from './second-factor.service.js';
import { beginTotpEnrolment, confirmTotpEnrolment, removeTotp, verifyTotpCode } from './totp.service.js';

// Strong sign-in's routes (issue 33 item 5). The person's own factors and sessions (`/api/auth/passkeys`,
// `/api/auth/totp`, `/api/auth/recovery-codes`, `/api/auth/sessions`, `/api/auth/security`) are reached by a session
// sent to enrol; the sign-in steps (passkey authentication, `/api/auth/totp/verify`, `/api/auth/recovery-codes/verify`)
// by a session whose second factor is pending, and the passkey sign-in by no session at all.

/** Authenticator and recovery code guesses per account (not per address): after these, wait; passkeys still work. */
export const CODE_GUESSES_PER_ACCOUNT = 5;
const CODE_GUESS_WINDOW_MS = 15 * 60_000;

const signInStep = { config: { secondFactorGate: 'pending' as const, rateLimit: { max: 20, timeWindow: 60_000 } } };

/** The person's own sign-in, not an admin viewing the app as them. */
function ownAuth(request: FastifyRequest): RequestAuth {
  const auth = requireUser(request);
  if (auth.impersonator) {
    throw new AppError('FORBIDDEN', "An admin viewing the app as a seller cannot change the seller's sign-in.");
  }
  return auth;
}

function pendingAuth(request: FastifyRequest): RequestAuth {
  const auth = requireUser(request);
  if (!auth.secondFactorPending) {
    throw new AppError('CONFLICT', 'This session has no second factor to pass.');
  }
  return auth;
}

export async function secondFactorRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const api = app.withTypeProvider<ZodTypeProvider>();
  // The person's own factors and sessions, reached by a session sent to enrol too.
  const ownFactors = signedInRoutes(app, { secondFactorGate: 'enrolment' });

  function codeGuessLimit(name: string) {
    const limit = app.createRateLimit({
      max: CODE_GUESSES_PER_ACCOUNT,
      timeWindow: CODE_GUESS_WINDOW_MS,
      keyGenerator: (request: FastifyRequest) => `${name}:${request.auth?.person.id ?? request.ip}`,
    });
    return async (request: FastifyRequest) => {
      const result = await limit(request);
      if (result.isAllowed || !result.isExceeded) return;
      throw new AppError(
        'RATE_LIMITED',
        `Too many codes were tried for this account. Try again in ${result.ttlInSeconds} seconds, or use a passkey.`,
        { headers: { 'retry-after': String(result.ttlInSeconds) } },
      );
    };
  }
  const limitTotpGuesses = codeGuessLimit('totp-guess');
  const limitRecoveryGuesses = codeGuessLimit('recovery-guess');

  /** After a first factor is enrolled: no session of the person is sent to enrol any more. */
  async function afterEnrolment(personId: string) {
    await liftEnrolmentRequirement(ctx, personId);
  }

  ownFactors.get('/api/auth/security', { schema: { response: { 200: securityOverview } } }, async (request) => {
    const auth = requireUser(request);
    const person = auth.person;
    return {
      passkeys: await listPasskeys(ctx, person.id),
      totpEnabled: await hasConfirmedTotp(ctx, person.id),
      recoveryCodesRemaining: await countUnusedRecoveryCodes(ctx, person.id),
      secondFactorRequired: await isSecondFactorRequired(ctx, person, auth.role),
    };
  });

  // Passkeys: registration by the signed-in person.
  ownFactors.post(
    '/api/auth/passkeys/registration-options',
    { schema: { response: { 200: webauthnOptions } } },
    async (request) =>
      (await passkeyRegistrationOptions(ctx, ownAuth(request).person)) as unknown as Record<string, unknown>,
  );

  ownFactors.post(
    '/api/auth/passkeys/registration',
    {
      schema: {
        body: passkeyRegistrationRequest,
        response: { 200: z.object({ passkey: passkeySchema, recoveryCodes: z.array(z.string()).optional() }) },
      },
    },
    async (request) => {
      const person = ownAuth(request).person;
      const result = await registerPasskey(ctx, person, request.body);
      await afterEnrolment(person.id);
      return result;
    },
  );

  ownFactors.get('/api/auth/passkeys', { schema: { response: { 200: z.array(passkeySchema) } } }, (request) =>
    listPasskeys(ctx, requireUser(request).person.id),
  );

  ownFactors.patch(
    '/api/auth/passkeys/:passkeyId',
    {
      schema: { params: passkeyIdParams, body: renamePasskeyRequest, response: { 200: passkeySchema } },
    },
    async (request) => renamePasskey(ctx, ownAuth(request).person.id, request.params.passkeyId, request.body.name),
  );

  ownFactors.delete(
    '/api/auth/passkeys/:passkeyId',
    { schema: { params: passkeyIdParams, response: { 200: successResponse } } },
    async (request) => {
      await deletePasskey(ctx, ownAuth(request).person.id, request.params.passkeyId);
      return { success: true as const };
    },
  );

  // Passkeys: sign-in (complete on its own), or the second step of a pending sign-in.
  api.post(
    '/api/auth/passkeys/authentication-options',
    { ...signInStep, schema: { response: { 200: webauthnOptions } } },
    async (request) => {
      const pending = request.auth?.secondFactorPending ? request.auth.person : undefined;
      return (await passkeyAuthenticationOptions(ctx, pending)) as unknown as Record<string, unknown>;
    },
  );

  api.post(
    '/api/auth/passkeys/authentication',
    { ...signInStep, schema: { body: passkeyAuthenticationRequest, response: { 200: authUser } } },
    async (request, reply) => {
      const auth = request.auth;
      if (auth?.secondFactorPending) {
        await authenticateWithPasskey(ctx, request.body, auth.person);
        await completeSecondFactor(ctx, auth, 'passkey');
        return presentAuthUser(auth.person);
      }
      const user = await authenticateWithPasskey(ctx, request.body);
      await startSession(ctx, request, reply, user.id, { signInMethod: 'passkey' });
      return presentAuthUser(user);
    },
  );

  // The authenticator app.
  ownFactors.post(
    '/api/auth/totp/enrolment',
    { schema: { response: { 200: totpEnrolmentResponse } } },
    async (request) => beginTotpEnrolment(ctx, ownAuth(request).person),
  );

  ownFactors.post(
    '/api/auth/totp/enrolment/confirm',
    {
      preHandler: async (request) => limitTotpGuesses(request),
      schema: { body: totpCodeRequest, response: { 200: secondFactorResult } },
    },
    async (request) => {
      const person = ownAuth(request).person;
      const { recoveryCodes } = await confirmTotpEnrolment(ctx, person, request.body.code);
      await afterEnrolment(person.id);
      return { success: true as const, ...(recoveryCodes ? { recoveryCodes } : {}) };
    },
  );

  ownFactors.delete('/api/auth/totp', { schema: { response: { 200: successResponse } } }, async (request) => {
    await removeTotp(ctx, ownAuth(request).person.id);
    return { success: true as const };
  });

  api.post(
    '/api/auth/totp/verify',
    {
      ...signInStep,
      preHandler: async (request) => limitTotpGuesses(request),
      schema: { body: totpCodeRequest, response: { 200: secondFactorResult } },
    },
    async (request) => {
      const auth = pendingAuth(request);
      await verifyTotpCode(ctx, auth.person, request.body.code);
      await completeSecondFactor(ctx, auth, 'totp');
      return { success: true as const };
    },
  );

  // Recovery codes.
  ownFactors.post(
    '/api/auth/recovery-codes',
    { schema: { response: { 200: recoveryCodesResponse } } },
    async (request) => {
      const person = ownAuth(request).person;
      if (!(await hasSecondFactor(ctx, person.id))) {
        throw new AppError('CONFLICT', 'Add a passkey or an authenticator app first; recovery codes come with it.');
      }
      return { codes: await replaceRecoveryCodes(ctx.db, person.id, ctx.clock.now()) };
    },
  );

  api.post(
    '/api/auth/recovery-codes/verify',
    {
      ...signInStep,
      preHandler: async (request) => limitRecoveryGuesses(request),
      schema: { body: recoveryCodeRequest, response: { 200: secondFactorResult } },
    },
    async (request) => {
      const auth = pendingAuth(request);
      if (!(await useRecoveryCode(ctx, auth.person.id, request.body.code))) {
        throw new AppError('VALIDATION_FAILED', 'That recovery code is not valid or was already used.');
      }
      await completeSecondFactor(ctx, auth, 'recovery_code');
      return { success: true as const };
    },
  );

  // Signed-in sessions.
  ownFactors.get('/api/auth/sessions', { schema: { response: { 200: signedInSessionsResponse } } }, async (request) =>
    listSignedInSessions(ctx, ownAuth(request)),
  );

  ownFactors.delete(
    '/api/auth/sessions/:sessionId',
    { schema: { params: sessionIdParams, response: { 200: successResponse } } },
    async (request) => {
      if (!(await endSignedInSession(ctx, ownAuth(request), request.params.sessionId))) {
        throw new AppError('NOT_FOUND', 'Session not found.');
      }
      return { success: true as const };
    },
  );

  ownFactors.post(
    '/api/auth/sessions/sign-out-others',
    { schema: { response: { 200: z.object({ success: z.literal(true), signedOut: z.number() }) } } },
    async (request) => ({ success: true as const, signedOut: await endOtherSignedInSessions(ctx, ownAuth(request)) }),
  );
}
