import type { AuthUser } from '@contract/auth';
import type { startAuthentication, startRegistration } from '@simplewebauthn/browser';
import { apiRequest } from './api-client';

// The browser's side of passkeys (issue 33), through @simplewebauthn/browser (the server's library's own browser
// half: it turns the server's JSON options into navigator.credentials calls and the answer back into JSON).

/** Signs in with a passkey, or passes the second step of a pending sign-in; answers who is signed in. */
export async function signInWithPasskey(): Promise<AuthUser> {
  const optionsJSON = await apiRequest<Parameters<typeof startAuthentication>[0]['optionsJSON']>(
    'POST',
    '/api/auth/passkeys/authentication-options',
  );
  // Loaded when a passkey is used, not with the first page (the landing page's JavaScript budget).
  const webauthn = await import('@simplewebauthn/browser');
  const response = await webauthn.startAuthentication({ optionsJSON });
  return apiRequest<AuthUser>('POST', '/api/auth/passkeys/authentication', { response });
}

/** Registers a new passkey for the signed-in person; answers the first recovery codes when it is their first factor. */
export async function registerPasskey(name: string): Promise<{ recoveryCodes?: string[] }> {
  const optionsJSON = await apiRequest<Parameters<typeof startRegistration>[0]['optionsJSON']>(
    'POST',
    '/api/auth/passkeys/registration-options',
  );
  const webauthn = await import('@simplewebauthn/browser');
  const response = await webauthn.startRegistration({ optionsJSON });
  return apiRequest('POST', '/api/auth/passkeys/registration', { response, name });
}
