import { describe, expect, it } from 'vitest';
import { readSignInQuery, withEmailSignIn, withoutSignInParams } from './sign-in-params';

describe('sign-in query', () => {
  it('reads the e-mail sign-in request with its tier', () => {
    expect(readSignInQuery('?signin=email&tier=growth')).toEqual({
      isEmailSignIn: true,
      tier: 'growth',
      errorMessage: undefined,
    });
  });

  it('turns a known error code into its sentence', () => {
    expect(readSignInQuery('?signin=email&error=expired').errorMessage).toBe(
      'This sign-in link has expired. Request a new one below.',
    );
    expect(readSignInQuery('?error=github_denied').errorMessage).toBe('GitHub sign-in was cancelled.');
  });

  it('ignores unknown error codes', () => {
    expect(readSignInQuery('?error=<script>').errorMessage).toBeUndefined();
  });

  it('strips only the sign-in parameters', () => {
    expect(withoutSignInParams('?signin=email&error=used&tier=x&logout=1')).toBe('?logout=1');
    expect(withoutSignInParams('?signin=email')).toBe('');
  });

  it('asks for the e-mail form, dropping a stale error', () => {
    expect(withEmailSignIn('?error=used')).toBe('?signin=email');
    expect(withEmailSignIn('', 'scale')).toBe('?signin=email&tier=scale');
  });
});
