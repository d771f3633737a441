import { describe, expect, it } from 'vitest';
import { formatHost, MAX_HOST_LENGTH, parseHostHeader } from './host-header.js';

describe('parseHostHeader', () => {
  it('reads hostname[:port], in lower case, without the trailing dot', () => {
    expect(parseHostHeader('acme.composer.localhost:5000')).toEqual({
      hostname: 'acme.composer.localhost',
      port: 5000,
    });
    expect(parseHostHeader('Acme.Composer.LOCALHOST')).toEqual({
      hostname: 'acme.composer.localhost',
      port: undefined,
    });
    expect(parseHostHeader('example.com.')).toEqual({ hostname: 'example.com', port: undefined });
    expect(parseHostHeader('example.com.:443')).toEqual({ hostname: 'example.com', port: 443 });
    expect(parseHostHeader('localhost')).toEqual({ hostname: 'localhost', port: undefined });
    expect(parseHostHeader('127.0.0.1:80')).toEqual({ hostname: '127.0.0.1', port: 80 });
    expect(parseHostHeader('my_service:5000')).toEqual({ hostname: 'my_service', port: 5000 });
  });

  it('refuses userinfo, paths, queries and fragments', () => {
    for (const host of [
      'acme.composer.localhost:5000@evil.example',
      'user@acme.composer.localhost',
      'user:pass@acme.composer.localhost',
      'acme.composer.localhost/portal',
      'acme.composer.localhost:5000/x',
      'acme.composer.localhost?x=1',
      'acme.composer.localhost#x',
      'acme.composer.localhost\\evil.example',
    ]) {
      expect(parseHostHeader(host), host).toBeUndefined();
    }
  });

  it('refuses several colons, an empty port, and ports out of range or not numeric', () => {
    for (const host of [
      'acme.composer.localhost:1:2',
      'acme.composer.localhost::5000',
      'acme.composer.localhost:',
      'acme.composer.localhost:0',
      'acme.composer.localhost:00000',
      'acme.composer.localhost:65536',
      'acme.composer.localhost:123456',
      'acme.composer.localhost:-1',
      'acme.composer.localhost:+80',
      'acme.composer.localhost:http',
      'acme.composer.localhost:80 ',
      ':5000',
    ]) {
      expect(parseHostHeader(host), host).toBeUndefined();
    }
    expect(parseHostHeader('a.example:1')?.port).toBe(1);
    expect(parseHostHeader('a.example:65535')?.port).toBe(65_535);
  });

  it('takes IDNs as punycode and refuses raw non-ASCII', () => {
    expect(parseHostHeader('xn--bcher-kva.example')).toEqual({ hostname: 'xn--bcher-kva.example', port: undefined });
    for (const host of ['bücher.example', 'b\u00c3\u00bccher.example', 'ex\u0430mple.com', '😀.example', 'a\u3002b']) {
      expect(parseHostHeader(host), host).toBeUndefined();
    }
  });

  it('refuses empty labels and characters a name cannot hold', () => {
    for (const host of [
      '',
      '.',
      '..',
      '.example.com',
      'example..com',
      'example.com..',
      'exa mple.com',
      'exa\tmple.com',
      'exa\u0000mple.com',
      'exa%41mple.com',
      '*.example.com',
      'a,b.example',
      'a;b.example',
      '"a".example',
      'a!b.example',
    ]) {
      expect(parseHostHeader(host), JSON.stringify(host)).toBeUndefined();
    }
  });

  it('refuses names longer than 253 characters and labels longer than 63', () => {
    const label63 = 'a'.repeat(63);
    expect(parseHostHeader(`${label63}.example`)?.hostname).toBe(`${label63}.example`);
    expect(parseHostHeader(`${'a'.repeat(64)}.example`)).toBeUndefined();
    const name253 = [label63, label63, label63, 'a'.repeat(61)].join('.');
    expect(name253).toHaveLength(253);
    expect(parseHostHeader(name253)?.hostname).toBe(name253);
    expect(parseHostHeader(`${name253}.:65535`)?.hostname).toBe(name253);
    expect(parseHostHeader(`${name253}a`)).toBeUndefined();
    expect(parseHostHeader(`${'a.'.repeat(127)}a`)).toBeUndefined();
    // Bounded before it is read: a megabyte costs no more than the limit.
    expect(parseHostHeader('a'.repeat(1_000_000))).toBeUndefined();
    expect(MAX_HOST_LENGTH).toBe(260);
  });

  it('takes IPv4 addresses, and refuses all-digit names that are none', () => {
    expect(parseHostHeader('10.0.0.1.')?.hostname).toBe('10.0.0.1');
    for (const host of ['999.1.1.1', '1.2.3', '5000', '1.2.3.4.5', '0x7f.0.0.1', 'example.123']) {
      expect(parseHostHeader(host), host).toBeUndefined();
    }
    expect(parseHostHeader('123.example')?.hostname).toBe('123.example');
  });

  it('takes IPv6 literals in brackets with an optional port', () => {
    expect(parseHostHeader('[::1]')).toEqual({ hostname: '[::1]', port: undefined });
    expect(parseHostHeader('[::1]:5000')).toEqual({ hostname: '[::1]', port: 5000 });
    expect(parseHostHeader('[2001:DB8::1]:443')).toEqual({ hostname: '[2001:db8::1]', port: 443 });
    expect(parseHostHeader('[::ffff:127.0.0.1]')?.hostname).toBe('[::ffff:127.0.0.1]');
    for (const host of [
      '::1',
      '[::1',
      '::1]',
      '[]',
      '[::1]x',
      '[::1]:',
      '[::1]:0',
      '[::1]:65536',
      '[::1]:80:80',
      '[fe80::1%eth0]',
      '[fe80::1%25eth0]',
      '[v1.fe]',
      '[::1]@evil.example',
      '[example.com]',
      `[${'1:'.repeat(30)}1]`,
    ]) {
      expect(parseHostHeader(host), host).toBeUndefined();
    }
  });
});

describe('parseHostHeader against the WHATWG URL parser', () => {
  it('refuses punycode that decodes to nothing and numeric top labels, as URL does', () => {
    for (const host of ['xn--acme-9ta.example', 'xn--.example', 'a.0x1', 'a.0x', 'a.0X1']) {
      expect(parseHostHeader(host), host).toBeUndefined();
    }
    expect(parseHostHeader('a.0xg')?.hostname).toBe('a.0xg');
  });

  it('accepts only hosts that URL takes, over many generated names', () => {
    // A seeded walk over the characters that matter: every name the parser takes must make a URL (a route that
    // builds one from it must never throw), and every one it refuses here is refused for a reason listed above.
    let state = 0x5eed;
    const random = () => {
      state = (Math.imul(state, 1_103_515_245) + 12_345) >>> 0;
      return state / 2 ** 32;
    };
    const alphabet = ['a', 'z', '0', '9', 'x', 'n', '-', '-', '.', '.', '_', 'X', 'A'];
    const prefixes = ['', '', 'xn--', '0x', '1.', 'a.'];
    let accepted = 0;
    for (let index = 0; index < 20_000; index++) {
      const length = 1 + Math.floor(random() * 20);
      let name = prefixes[Math.floor(random() * prefixes.length)]!;
      for (let position = 0; position < length; position++) name += alphabet[Math.floor(random() * alphabet.length)];
      const parsed = parseHostHeader(name);
      if (!parsed) continue;
      accepted++;
      expect(() => new URL(`http://${parsed.hostname}/`), name).not.toThrow();
      expect(new URL(`http://${parsed.hostname}/`).hostname, name).toBe(parsed.hostname);
    }
    expect(accepted).toBeGreaterThan(1_000);
  });
});

describe('formatHost', () => {
  it('writes the host back as Composer keys credentials', () => {
    expect(formatHost({ hostname: 'acme.composer.localhost', port: 5000 })).toBe('acme.composer.localhost:5000');
    expect(formatHost({ hostname: '[::1]', port: undefined })).toBe('[::1]');
  });
});
