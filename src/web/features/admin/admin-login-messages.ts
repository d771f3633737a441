import { MAGIC_LINK_VALIDITY_MINUTES } from '../../../contract/auth-messages';
import { isApiRequestError } from '../../lib/api-error';

export type ToastText = { title: string; description: string };

/** Spec admin §8: what a refused magic-link request tells the person at the login form. */
export function magicLinkRequestFailure(error: unknown, email: string): ToastText {
  const status = isApiRequestError(error) ? error.status : undefined;
  if (status === 404) {
    return {
      title: 'Admin Account Not Found',
      description: `No admin account exists for ${email}. Please contact the system administrator to create your admin account first.`,
    };
  }
  if (status === 403) {
    return {
      title: 'Access Denied',
      description: serverMessage(error) ?? 'This email is not registered as an admin account.',
    };
  }
  const message = serverMessage(error);
  const suggestion = isApiRequestError(error) ? error.suggestion : undefined;
  return {
    title: 'Error',
    description: message ? [message, suggestion].filter(Boolean).join(' ') : 'An unexpected error occurred',
  };
}

/** Spec admin §8: what a refused token tells the person at the token step. */
export function tokenVerificationFailure(error: unknown): ToastText {
  const status = isApiRequestError(error) ? error.status : undefined;
  const message = serverMessage(error) ?? '';
  if (status === 429) return { title: 'Too Many Attempts', description: 'Please wait a moment before trying again.' };
  if (status === 400) {
    if (message.includes('already been used')) {
      return {
        title: 'Token Already Used',
        description: 'This magic link has already been used. Please request a new magic link to log in again.',
      };
    }
    if (message.includes('expired')) {
      return {
        title: 'Token Expired',
        description: `This magic link has expired. Magic links are valid for ${MAGIC_LINK_VALIDITY_MINUTES} minutes. Please request a new magic link.`,
      };
    }
    if (message.includes('not valid')) {
      return {
        title: 'Invalid Token',
        description:
          'This magic link token is not valid. Please check the token and try again, or request a new magic link.',
      };
    }
  }
  return { title: 'Error', description: message || 'Token verification failed' };
}

function serverMessage(error: unknown): string | undefined {
  if (isApiRequestError(error)) return error.message || undefined;
  if (error instanceof Error) return error.message || undefined;
  return undefined;
}
