import { DrizzleQueryError } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { serializeErrorForLog } from './error-log.js';

describe('serializeErrorForLog', () => {
  it('keeps the SQL and the database error but never the query parameters', () => {
    const cause = Object.assign(new Error('invalid byte sequence for encoding "UTF8": 0x00'), {
      code: '22021',
      detail: 'Key (email)=(victim@example.com) already exists.',
      severity: 'ERROR',
    });
    const error = new DrizzleQueryError(
      'select * from users where email = $1 and token_hash = $2',
      ['victim@example.com', 'secret-token-hash'],
      cause,
    );
    const logged = serializeErrorForLog(error);
    const text = JSON.stringify(logged);
    expect(text).not.toContain('victim@example.com');
    expect(text).not.toContain('secret-token-hash');
    expect(logged).toMatchObject({
      message: 'Failed query: select * from users where email = $1 and token_hash = $2',
      cause: { code: '22021', severity: 'ERROR', message: 'invalid byte sequence for encoding "UTF8": 0x00' },
    });
    expect((logged as { stack: string }).stack).toContain('at ');
  });

  it('passes other errors through with their message, code and stack', () => {
    const error = Object.assign(new Error('disk full'), { code: 'ENOSPC' });
    expect(serializeErrorForLog(error)).toMatchObject({ type: 'Error', message: 'disk full', code: 'ENOSPC' });
    expect(serializeErrorForLog('plain')).toBe('plain');
  });
});
