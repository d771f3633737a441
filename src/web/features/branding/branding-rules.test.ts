import { describe, expect, it } from 'vitest';
import { BRAND_COLOR_DEFAULTS } from '../../../contract/branding';
import { colorPickerValue, formValuesFrom, isInvalidColor, saveInputFrom } from './brand-form';
import { composerHostOf, composerTargetNote, dnsPropagationNote, dnsRecords, zoneOf } from './dns-records';
import { INVALID_LOGO_TYPE, LOGO_INPUT_ACCEPT, LOGO_TOO_LARGE, logoFileProblem } from './logo-file';

const MB = 1024 * 1024;

describe('logo file checks', () => {
  it('accepts SVG, PNG, JPEG, GIF and WebP up to 5 MB', () => {
    for (const type of ['image/svg+xml', 'image/png', 'image/jpeg', 'image/gif', 'image/webp']) {
      expect(logoFileProblem({ type, size: 5 * MB })).toBeNull();
    }
  });
  it('refuses other types with the spec texts', () => {
    for (const type of ['application/pdf', 'image/bmp', 'text/html', '']) {
      expect(logoFileProblem({ type, size: 10 })).toBe(INVALID_LOGO_TYPE);
    }
    expect(INVALID_LOGO_TYPE).toEqual({
      title: 'Invalid file type',
      description: 'Please upload an image file (SVG, PNG, JPG, GIF, or WebP)',
    });
  });
  it('refuses anything over 5 MB with the spec texts', () => {
    expect(logoFileProblem({ type: 'image/png', size: 5 * MB + 1 })).toBe(LOGO_TOO_LARGE);
    expect(LOGO_TOO_LARGE).toEqual({ title: 'File too large', description: 'Please upload an image smaller than 5MB' });
  });
  it('offers images only in the file picker', () => {
    expect(LOGO_INPUT_ACCEPT).toBe('image/svg+xml,image/png,image/jpeg,image/gif,image/webp');
  });
});

describe('DNS setup records', () => {
  const base = { composerTarget: 'acme.composer.packgate.io', publicUrl: 'https://app.packgate.io' };

  it('point composer at the seller host and portal at the app host, with TTL 300', () => {
    expect(dnsRecords({ ...base, brandDomain: 'composer.acme.com' })).toEqual([
      expect.objectContaining({
        type: 'CNAME',
        name: 'composer',
        host: 'composer.acme.com',
        value: 'acme.composer.packgate.io',
        ttl: 300,
      }),
      expect.objectContaining({
        type: 'CNAME',
        name: 'portal',
        host: 'portal.acme.com',
        value: 'app.packgate.io',
        ttl: 300,
      }),
    ]);
  });

  it('keep the name the seller chose for the composer host', () => {
    const [composer, portal] = dnsRecords({ ...base, brandDomain: 'packages.acme.co.uk' });
    expect(composer).toMatchObject({ name: 'packages', host: 'packages.acme.co.uk' });
    expect(portal).toMatchObject({ host: 'portal.acme.co.uk' });
  });

  it('put composer in front of a bare domain, and use an example zone without one', () => {
    expect(composerHostOf('Acme.com.')).toBe('composer.acme.com');
    expect(zoneOf('acme.com')).toBe('acme.com');
    expect(composerHostOf('')).toBe('composer.yourcompany.com');
    expect(dnsRecords({ ...base, brandDomain: null })[1]).toMatchObject({ host: 'portal.yourcompany.com' });
  });

  it('name the portal host without the port of a local app', () => {
    expect(dnsRecords({ ...base, publicUrl: 'http://localhost:5000', brandDomain: 'x.acme.com' })[1]?.value).toBe(
      'localhost',
    );
  });

  it("say that only the seller's own host verifies, not the bare Composer domain", () => {
    expect(composerTargetNote('acme.composer.packgate.io')).toBe(
      'Point it at acme.composer.packgate.io exactly: that host is yours alone, which is how verification knows the domain is yours. A CNAME to composer.packgate.io does not verify.',
    );
  });

  it('say how long propagation takes', () => {
    expect(dnsPropagationNote()).toBe('DNS changes usually take 5-15 minutes to propagate, and at most 48 hours.');
  });
});

describe('the Brand Settings form values', () => {
  const settings = {
    brandName: 'Acme',
    brandLogo: null,
    brandHideText: false,
    ...BRAND_COLOR_DEFAULTS,
    brandDomain: null,
    brandDomainVerifiedAt: null,
    supportEmail: null,
    emailFromName: null,
    emailFromAddress: null,
    emailReplyTo: null,
    domainCnameTarget: 'acme.composer.localhost',
    repositoryUrl: 'http://acme.composer.localhost:5000',
    updatedAt: null,
  };

  it('show unset fields as empty text', () => {
    const values = formValuesFrom(settings);
    expect(values.brandLogo).toBe('');
    expect(values.supportEmail).toBe('');
    expect(values.brandColor).toBe('#8B5CF6');
  });

  it('send emptied fields as null so that they read their defaults again', () => {
    const input = saveInputFrom({
      ...formValuesFrom(settings),
      brandName: '  ',
      brandColor: '',
      supportEmail: ' a@b.c ',
    });
    expect(input.brandName).toBeNull();
    expect(input.brandColor).toBeNull();
    expect(input.supportEmail).toBe('a@b.c');
  });

  it('never hide the name without a logo, and lower-case the domain', () => {
    const values = { ...formValuesFrom(settings), brandHideText: true, brandDomain: ' Composer.ACME.com ' };
    expect(saveInputFrom(values)).toMatchObject({ brandHideText: false, brandDomain: 'composer.acme.com' });
    expect(saveInputFrom({ ...values, brandLogo: '/api/branding/logos/u/l.png' }).brandHideText).toBe(true);
  });

  it('give colour pickers #rrggbb, expanding #rgb and falling back for anything else', () => {
    expect(colorPickerValue('#0EA5E9', '#FFFFFF')).toBe('#0ea5e9');
    expect(colorPickerValue('#abc', '#FFFFFF')).toBe('#aabbcc');
    expect(colorPickerValue('purple', '#8B5CF6')).toBe('#8b5cf6');
  });

  it('flag colours the server would refuse, but not empty ones', () => {
    expect(isInvalidColor('')).toBe(false);
    expect(isInvalidColor('#12345')).toBe(true);
    expect(isInvalidColor('red')).toBe(true);
    expect(isInvalidColor('#123456')).toBe(false);
  });
});
