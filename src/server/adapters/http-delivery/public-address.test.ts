import { describe, expect, it } from 'vitest';
import { type AddressResolver, isPublicAddress, parseTargetUrl, resolveTarget } from './public-address.js';

const resolverOf = (answers: Record<string, string[]>): AddressResolver => ({
  resolve: async (hostname) => answers[hostname] ?? [],
});

describe('the webhook address check', () => {
  it('takes public unicast addresses only', () => {
    for (const address of ['8.8.8.8', '1.1.1.1', '2606:4700:4700::1111']) expect(isPublicAddress(address)).toBe(true);
    for (const address of [
      '10.0.0.1',
      '172.16.5.4',
      '192.168.0.10',
      '127.0.0.1',
      '169.254.169.254',
      '100.64.0.1',
      '224.0.0.251',
      '255.255.255.255',
      '0.0.0.0',
      '192.0.2.1',
      '::1',
      '::',
      'fe80::1',
      'fc00::1',
      'fd12:3456::1',
      'ff02::1',
      '::ffff:127.0.0.1',
      '::ffff:10.0.0.1',
      '64:ff9b::a00:1',
      '2002:a00:1::',
      'not an address',
    ]) {
      expect({ address, isPublic: isPublicAddress(address) }).toEqual({ address, isPublic: false });
    }
  });

  it('refuses a name when any of its addresses is private, and lets the allow-list through', async () => {
    const resolver = resolverOf({ 'mixed.test': ['8.8.8.8', '10.0.0.1'], 'public.test': ['8.8.4.4'] });
    await expect(resolveTarget(new URL('http://mixed.test/'), resolver, [])).rejects.toThrow(
      'The webhook URL must point to a public internet address',
    );
    expect(await resolveTarget(new URL('https://public.test/'), resolver, [])).toEqual({
      address: '8.8.4.4',
      family: 4,
    });
    expect(await resolveTarget(new URL('http://mixed.test/'), resolver, ['10.0.0.0/8'])).toEqual({
      address: '8.8.8.8',
      family: 4,
    });
    expect(await resolveTarget(new URL('http://mixed.test/'), resolver, ['mixed.test'])).toMatchObject({ family: 4 });
    expect(await resolveTarget(new URL('http://[::1]:8080/'), resolver, ['::1'])).toEqual({
      address: '::1',
      family: 6,
    });
    await expect(resolveTarget(new URL('http://127.0.0.2/'), resolver, ['127.0.0.1'])).rejects.toThrow(
      'public internet address',
    );
    await expect(resolveTarget(new URL('http://unknown.test/'), resolver, [])).rejects.toThrow('could not be resolved');
  });

  it('takes http and https URLs without credentials', () => {
    expect(parseTargetUrl('https://shop.example.com/hooks').hostname).toBe('shop.example.com');
    expect(() => parseTargetUrl('ftp://example.com/')).toThrow('must start with https:// or http://');
    expect(() => parseTargetUrl('file:///etc/passwd')).toThrow('must start with https:// or http://');
    expect(() => parseTargetUrl('not a url')).toThrow('must start with https:// or http://');
    expect(() => parseTargetUrl('https://user:secret@example.com/')).toThrow('user name or password');
  });
});
