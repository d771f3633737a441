import { describe, expect, it } from 'vitest';
import { type AddressResolver, isPublicAddress, parseTargetUrl, resolveTarget } from './public-address.js';

const resolverOf = (answers: Record<string, string[]>): AddressResolver => ({
  resolve: async (hostname) => answers[hostname] ?? [],
});

describe('the webhook address check', () => {
  it('takes public unicast addresses only', () => {
    for (const address of [
      '8.8.8.8',
      '1.1.1.1',
      '2606:4700:4700::1111',
      '2a00:1450:4001:81c::200e',
      '::ffff:8.8.8.8',
    ]) {
      expect({ address, isPublic: isPublicAddress(address) }).toEqual({ address, isPublic: true });
    }
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
      '0.1.2.3',
      '192.0.2.1',
      '198.18.0.1',
      '240.0.0.1',
      '::1',
      '::',
      'fe80::1',
      'fec0::1',
      'fc00::1',
      'fd12:3456::1',
      'ff02::1',
      'ff0e::1',
      'not an address',
    ]) {
      expect({ address, isPublic: isPublicAddress(address) }).toEqual({ address, isPublic: false });
    }
  });

  it('refuses every IPv6 form that carries an IPv4 address, judging only the mapped form by what it carries', () => {
    for (const address of [
      // IPv4-mapped: judged as the IPv4 address.
      '::ffff:127.0.0.1',
      '::ffff:10.0.0.1',
      '::ffff:169.254.169.254',
      '::ffff:7f00:1',
      // IPv4-compatible (deprecated, inside the reserved ::/8): refused whatever it carries.
      '::127.0.0.1',
      '::7f00:1',
      '::10.0.0.1',
      '::169.254.169.254',
      '::8.8.8.8',
      '::2',
      // IPv4-translated (RFC 6145).
      '::ffff:0:127.0.0.1',
      // NAT64, well-known and local-use prefixes.
      '64:ff9b::127.0.0.1',
      '64:ff9b::a00:1',
      '64:ff9b::8.8.8.8',
      '64:ff9b:1::a00:1',
      '64:ff9b:1:ffff::7f00:1',
      // 6to4 carrying loopback, private and public addresses.
      '2002:7f00:1::',
      '2002:a00:1::',
      '2002:c0a8:1::1',
      '2002:808:808::1',
      // Teredo (server and client addresses inside).
      '2001:0:4136:e378:8000:63bf:3fff:fdd2',
      '2001::7f00:1',
      // Documentation, discard, segment routing and unassigned space outside 2000::/3.
      '2001:db8::1',
      '3fff::1',
      '100::1',
      '5f00::1',
      '4000::1',
      'e000::1',
    ]) {
      expect({ address, isPublic: isPublicAddress(address) }).toEqual({ address, isPublic: false });
    }
  });

  it('refuses a URL whose host writes a private address in any form', async () => {
    const resolver = resolverOf({ 'compat.test': ['::127.0.0.1'], 'nat64.test': ['64:ff9b::a9fe:a9fe'] });
    for (const raw of [
      'http://[::127.0.0.1]/',
      'http://[::7f00:1]:8080/hook',
      'http://[::ffff:127.0.0.1]/',
      'http://[::ffff:0:127.0.0.1]/',
      'http://[64:ff9b::127.0.0.1]/',
      'http://[64:ff9b:1::7f00:1]/',
      'http://[2002:7f00:1::]/',
      'http://[2001:0:4136:e378:8000:63bf:80ff:fffe]/',
      'http://[fe80::1]/',
      'http://2130706433/',
      'http://0x7f.0.0.1/',
      'http://127.1/',
      'http://0177.0.0.1/',
      'http://0/',
      'http://compat.test/',
      'http://nat64.test/',
    ]) {
      await expect(resolveTarget(parseTargetUrl(raw), resolver, []), raw).rejects.toThrow(
        'The webhook URL must point to a public internet address',
      );
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
