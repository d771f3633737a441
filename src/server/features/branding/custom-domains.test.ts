import { describe, expect, it } from 'vitest';
import { type CnameResolver, checkCname } from './custom-domains.js';

// The verification rule against resolvers that answer as node:dns does (records, or an error with a code).

const targets = { sellerHost: 'acme.repo.example' };

function answering(records: string[]): CnameResolver {
  return { resolveCname: async () => records };
}

function failing(code: string): CnameResolver {
  return {
    resolveCname: async () => {
      throw Object.assign(new Error(code), { code });
    },
  };
}

describe('checkCname', () => {
  it("verifies a CNAME to the seller's host, whatever the case or trailing dot", async () => {
    expect((await checkCname(answering(['ACME.repo.example.']), 'composer.acme.com', targets)).verified).toBe(true);
  });

  it('does not verify a CNAME to the bare Composer domain, which names no seller', async () => {
    const check = await checkCname(answering(['repo.example']), 'composer.acme.com', targets);
    expect(check).toMatchObject({ verified: false, isDefinite: true });
    expect(check.message).toContain('points to repo.example, not to acme.repo.example');
  });

  it('says where the name points when it is elsewhere, and what to change', async () => {
    const check = await checkCname(answering(['globex.repo.example']), 'composer.acme.com', targets);
    expect(check).toMatchObject({ verified: false, isDefinite: true });
    expect(check.message).toContain('points to globex.repo.example, not to acme.repo.example');
    expect(check.message).toContain('5-15 minutes');
  });

  it('tells a missing record from a missing name, and both from a DNS failure', async () => {
    const noRecord = await checkCname(failing('ENODATA'), 'composer.acme.com', targets);
    expect(noRecord).toMatchObject({ verified: false, isDefinite: true });
    expect(noRecord.message).toContain(
      'has no CNAME record. Add a CNAME record for composer.acme.com pointing to acme.repo.example',
    );
    const noName = await checkCname(failing('ENOTFOUND'), 'composer.acme.com', targets);
    expect(noName.message).toContain('was not found in DNS');
    const outage = await checkCname(failing('ETIMEOUT'), 'composer.acme.com', targets);
    expect(outage).toMatchObject({ verified: false, isDefinite: false });
    expect(outage.message).toContain('ETIMEOUT');
  });
});
