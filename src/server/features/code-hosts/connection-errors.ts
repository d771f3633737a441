import { CodeHostError } from '../../adapters/codehost/code-host.js';
import { AppError } from '../../http/errors.js';

// A code host's refusal as an API error the seller can act on; the message never carries a credential.

export function connectionAppError(error: CodeHostError): AppError {
  switch (error.code) {
    case 'NOT_FOUND':
      return new AppError('NOT_FOUND', error.message, {
        suggestion: 'Check that the repository still exists and that the connection can see it.',
      });
    case 'UNAUTHORIZED':
      return new AppError('UNAUTHENTICATED', error.message, {
        title: 'Code Host Refused Access',
        suggestion: 'Connect the code host again on Code hosts.',
      });
    case 'RATE_LIMITED':
      return new AppError('RATE_LIMITED', error.message, {
        suggestion: 'Wait until the limit resets, then try again.',
        headers: { 'retry-after': String(error.retryAfterSeconds) },
      });
    case 'UNAVAILABLE':
      return new AppError('UNAVAILABLE', `${error.message} Please try again in a moment.`, {
        title: 'Code Host Unavailable',
      });
  }
}

/** Runs a code-host call for a request: its failures become API errors. */
export async function withConnectionErrors<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof CodeHostError) throw connectionAppError(error);
    throw error;
  }
}
