import { describe, expect, it } from 'vitest';
import { findPgError, isForeignKeyViolation, isUniqueViolation, violatedUniqueConstraint } from './pg-errors.js';

// Drizzle wraps the driver's error: the SQLSTATE sits on `cause`.
const wrapped = (code: string, constraint?: string) => ({
  message: 'Failed query',
  cause: { code, ...(constraint ? { constraint } : {}) },
});

describe('PostgreSQL error reading', () => {
  it('finds a unique violation on the error or its cause, by constraint when named', () => {
    expect(isUniqueViolation({ code: '23505' })).toBe(true);
    expect(isUniqueViolation(wrapped('23505', 'packages_owner_name_unique'))).toBe(true);
    expect(isUniqueViolation(wrapped('23505', 'packages_owner_name_unique'), 'packages_owner_name_unique')).toBe(true);
    expect(isUniqueViolation(wrapped('23505', 'users_email_unique'), 'packages_owner_name_unique')).toBe(false);
    expect(violatedUniqueConstraint(wrapped('23505', 'users_email_unique'))).toBe('users_email_unique');
  });

  it('never reads a foreign-key failure as "already exists"', () => {
    const error = wrapped('23503', 'grants_package_id_packages_id_fk');
    expect(isUniqueViolation(error)).toBe(false);
    expect(violatedUniqueConstraint(error)).toBeUndefined();
    expect(isForeignKeyViolation(error)).toBe(true);
  });

  it('ignores errors without a SQLSTATE and bounds the cause chain', () => {
    expect(findPgError(new Error('boom'))).toBeUndefined();
    expect(findPgError(undefined)).toBeUndefined();
    expect(findPgError({ code: 'FST_ERR_VALIDATION' })).toBeUndefined();
    const loop: { cause?: unknown } = {};
    loop.cause = loop;
    expect(findPgError(loop)).toBeUndefined();
  });
});
