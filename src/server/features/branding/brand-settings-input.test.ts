import { describe, expect, it } from 'vitest';
import { isOwnUploadedLogo, parseBrandDomain, parseBrandSettingsInput } from './brand-settings-input.js';

const USER = '6f1c1d3a-3b7e-4c1a-9d55-0a8b6b9f2e10';
const context = { userId: USER, appHostname: 'app.packgate.example', composerDomain: 'repo.packgate.example' };

describe('parseBrandSettingsInput', () => {
  it('keeps absent fields, clears blank ones and upper-cases colours', () => {
    const { changes, problems } = parseBrandSettingsInput(
      { brandColor: '#abc', brandName: '  ', supportEmail: null, brandHideText: null },
      context,
    );
    expect(problems).toEqual([]);
    expect(changes.brandColor).toBe('#ABC');
    expect(changes.brandName).toBeNull();
    expect(changes.supportEmail).toBeNull();
    expect(changes.brandHideText).toBe(false);
    expect(changes.brandTextColor).toBeUndefined();
    expect(changes.brandDomain).toBeUndefined();
  });

  it('accepts #RGB and #RRGGBB only', () => {
    for (const good of ['#fff', '#FFFFFF', '#8b5cf6']) {
      expect(parseBrandSettingsInput({ brandColor: good }, context).problems).toEqual([]);
    }
    for (const bad of ['fff', '#ffff', '#GGGGGG', 'rgb(1,2,3)', '#fff;', 'var(--x)', '#fff}body{x:y']) {
      expect(parseBrandSettingsInput({ brandColor: bad }, context).problems, bad).toEqual([
        'brandColor: must be a hex colour like #8B5CF6 or #FFF',
      ]);
    }
  });

  it('takes https logo URLs and the seller’s own uploads only', () => {
    const own = `/api/branding/logos/${USER}/${'a'.repeat(32)}.svg`;
    expect(parseBrandSettingsInput({ brandLogo: own }, context).changes.brandLogo).toBe(own);
    expect(parseBrandSettingsInput({ brandLogo: 'https://cdn.acme.com/l.png' }, context).problems).toEqual([]);
    for (const bad of [
      'http://cdn.acme.com/l.png',
      'https://user:pass@cdn.acme.com/l.png',
      'data:image/png;base64,AAAA',
      'javascript:alert(1)',
      '//cdn.acme.com/l.png',
      `/api/branding/logos/${'0'.repeat(8)}-0000-0000-0000-${'0'.repeat(12)}/${'a'.repeat(32)}.png`,
      `/api/branding/logos/${USER}/../secret.key`,
    ]) {
      expect(parseBrandSettingsInput({ brandLogo: bad }, context).problems, bad).toHaveLength(1);
    }
    expect(isOwnUploadedLogo(own, USER)).toBe(true);
  });

  it('lists every problem, each naming its field', () => {
    const { problems } = parseBrandSettingsInput(
      { brandColor: 'purple', emailReplyTo: 'nobody', emailFromName: 'A\nB', brandName: 'x'.repeat(101) },
      context,
    );
    expect(problems.map((problem) => problem.split(':')[0])).toEqual([
      'brandName',
      'brandColor',
      'emailReplyTo',
      'emailFromName',
    ]);
  });
});

describe('the e-mail sender display name', () => {
  it('refuses a name that could pose as an address or end the header, saying what to write', () => {
    for (const bad of [
      'Acme <ceo@bank>',
      'ceo@bank.example',
      'Acme >',
      '"Bank" ',
      'Acme \u201cBank\u201d',
      'A\r\nBcc: x@y.z',
    ]) {
      const { problems, changes } = parseBrandSettingsInput({ emailFromName: bad }, context);
      expect(problems, bad).toHaveLength(1);
      expect(problems[0], bad).toMatch(/^emailFromName: /);
      expect(changes.emailFromName, bad).toBe(bad.trim());
    }
    expect(parseBrandSettingsInput({ emailFromName: 'Acme <ceo@bank>' }, context).problems).toEqual([
      'emailFromName: must be a plain name such as Acme Support, without <, >, @, double quotes or line breaks',
    ]);
  });

  it('accepts plain names, apostrophes and accents included', () => {
    for (const good of ['Acme Licensing', "O'Reilly Media", 'Müller & Söhne GmbH', 'Acme (Support)']) {
      expect(parseBrandSettingsInput({ emailFromName: good }, context).problems, good).toEqual([]);
    }
  });
});

describe('parseBrandDomain', () => {
  it('lower-cases and drops a trailing dot', () => {
    expect(parseBrandDomain('Composer.Acme.COM.', context)).toEqual({ domain: 'composer.acme.com' });
    expect(parseBrandDomain('xn--bcher-kva.example', context)).toEqual({ domain: 'xn--bcher-kva.example' });
  });

  it('refuses schemes, ports, paths, IP addresses, single labels, the app and names under COMPOSER_DOMAIN', () => {
    for (const bad of [
      'https://composer.acme.com',
      'composer.acme.com:443',
      'composer.acme.com/packages',
      'user@composer.acme.com',
      '192.168.1.10',
      'intranet',
      '-bad.acme.com',
      'a..b.com',
      `${'a'.repeat(64)}.com`,
      'app.packgate.example',
      'repo.packgate.example',
      'acme.repo.packgate.example',
    ]) {
      expect(parseBrandDomain(bad, context).problem, bad).toMatch(/^brandDomain: /);
    }
  });
});
