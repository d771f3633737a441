import { describe, expect, it } from 'vitest';
import {
  buildLicenseEmail,
  describeLicenseEnd,
  formatLicenseDate,
  type LicenseEmailInput,
  TOKEN_PLACEHOLDER,
} from './license-email.js';

const repositoryUrl = 'http://acme.composer.localhost:5000';
const token = 'pgc_abcdefghijklmnopqrstuvwxyz012345';
const expiresAt = new Date('2026-03-08T12:00:00Z');
const temporary = { kind: 'temporary' as const, durationDays: 7, expiresAt, endMode: 'access' as const };

/** The e-mail of `fields` from the acme seller's repository at repositoryUrl (either may be changed too). */
const acmeMail = (fields: Omit<LicenseEmailInput, 'repositoryUrl' | 'sellerSlug'> & Partial<LicenseEmailInput>) =>
  buildLicenseEmail({ repositoryUrl, sellerSlug: 'acme', ...fields });

/** The e-mail to a new holder of acme/widget on the 7-day temporary license, with `fields` added or changed. */
const newHolderMail = (fields: Partial<LicenseEmailInput> = {}) =>
  acmeMail({ reason: 'new-holder', token, packageNames: ['acme/widget'], license: temporary, ...fields });

describe('the license e-mail', () => {
  it('gives a new holder the URL, the token and the commands in the order they must run', () => {
    const mail = newHolderMail({ sellerName: 'Acme Corp' });
    expect(mail.subject).toBe('Your access to acme/widget from Acme Corp');
    expect(mail.text).toContain('Acme Corp has given you a 7-day temporary license for acme/widget.');
    expect(mail.text).toContain('It ends on March 8, 2026 at 12:00 PM UTC;');
    expect(mail.text).toContain(`Repository URL: ${repositoryUrl}\nYour token: ${token}`);
    expect(mail.text).toContain(
      [
        `    composer config repositories.acme composer ${repositoryUrl}`,
        '    composer config secure-http false',
        `    composer config bearer.acme.composer.localhost:5000 ${token}`,
        '    composer require acme/widget',
      ].join('\n'),
    );
    expect(mail.text).toContain('Ask Acme Corp to issue a new one');
    expect(mail.html).toContain(`composer config bearer.acme.composer.localhost:5000 ${token}`);
  });

  it('shows a new holder where else a token goes, each with a placeholder of its kind and never the delivered token', () => {
    const mail = newHolderMail({ sellerName: 'Acme Corp' });
    const elsewhere = mail.text.slice(mail.text.indexOf('For CI, deployments and update bots'));
    for (const title of ['COMPOSER_AUTH', 'Docker build secret', 'GitHub Actions', 'GitLab CI', 'Laravel Forge']) {
      expect(elsewhere).toContain(title);
    }
    expect(elsewhere).toMatch(/Dependabot/);
    expect(elsewhere).toMatch(/Renovate/);
    expect(elsewhere).toContain('acme.composer.localhost:5000');
    expect(elsewhere).toContain('YOUR_CI_TOKEN');
    expect(elsewhere).not.toContain(token);
    // The token appears where it is delivered and in the commands that set it, nowhere else.
    expect(mail.text.split(token)).toHaveLength(3);
  });

  it('names nobody when the seller has no name', () => {
    const mail = newHolderMail();
    expect(mail.subject).toBe('Your access to acme/widget');
    expect(mail.text).toContain('You have been given a 7-day temporary license for acme/widget.');
    expect(mail.text).toContain('Ask the seller to issue a new one');
  });

  it('tells a known holder the package was added, without any token', () => {
    const mail = acmeMail({
      reason: 'package-added',
      sellerName: 'Acme Corp',
      packageNames: ['acme/gadget'],
      license: { ...temporary, durationDays: 14 },
    });
    expect(mail.subject).toBe('acme/gadget was added to your access from Acme Corp');
    expect(mail.text).toContain('Acme Corp has added acme/gadget to your access: a 14-day temporary license.');
    expect(mail.text).toContain('It works with the token you already have');
    expect(mail.text).toContain('    composer require acme/gadget');
    expect(mail.text).toContain(`composer config bearer.acme.composer.localhost:5000 ${TOKEN_PLACEHOLDER}`);
    expect(mail.text).not.toMatch(/pgc_/);
    expect(mail.text).toContain('Lost your token?');
  });

  it('says when a license was renewed', () => {
    const mail = acmeMail({
      reason: 'license-renewed',
      packageNames: ['acme/widget'],
      license: temporary,
    });
    expect(mail.subject).toBe('Your license for acme/widget was renewed');
    expect(mail.text).toContain('The seller has renewed your license for acme/widget: a 7-day temporary license.');
  });

  it('marks a test purchase in the subject and first thing in the text, so nobody takes it for a receipt', () => {
    const mail = acmeMail({
      reason: 'package-added',
      packageNames: ['acme/widget'],
      isTestPurchase: true,
    });
    expect(mail.subject).toBe('[Test] acme/widget was added to your access');
    expect(mail.text.split('\n\n').slice(0, 2)).toEqual([
      'Hello,',
      'This is a test purchase made by the seller: no payment was taken.',
    ]);
    expect(mail.html).toContain('This is a test purchase made by the seller: no payment was taken.');
  });

  it('sends a regenerated token with the command that replaces the old one', () => {
    const mail = acmeMail({
      reason: 'token-regenerated',
      sellerName: 'Acme Corp',
      token,
      packageNames: ['acme/gadget', 'acme/widget'],
    });
    expect(mail.subject).toBe('Your new Composer token for Acme Corp');
    expect(mail.text).toContain('Your previous token no longer works.');
    expect(mail.text).toContain(`    composer config bearer.acme.composer.localhost:5000 ${token}`);
    expect(mail.text).toContain('Packages you may install: acme/gadget, acme/widget.');
  });

  it('leaves secure-http out over https', () => {
    const mail = newHolderMail({ repositoryUrl: 'https://acme.composer.packgate.example' });
    expect(mail.text).not.toContain('secure-http');
  });

  it('escapes what the HTML shows', () => {
    const mail = newHolderMail({ sellerName: '<script>alert(1)</script>' });
    expect(mail.html).not.toContain('<script>');
    expect(mail.html).toContain('&lt;script&gt;');
  });
});

describe('license terms in words', () => {
  it('describes each way a license ends', () => {
    expect(formatLicenseDate(expiresAt)).toBe('March 8, 2026 at 12:00 PM UTC');
    expect(describeLicenseEnd({ ...temporary, expiresAt: null })).toBe('It does not expire.');
    expect(describeLicenseEnd({ kind: 'purchase', expiresAt, endMode: 'updates' })).toBe(
      'Updates end on March 8, 2026 at 12:00 PM UTC: versions released before then stay installable afterwards.',
    );
  });
});

describe("the seller's brand in the license e-mail", () => {
  const branded = (brand: LicenseEmailInput['brand']) => newHolderMail({ sellerName: 'Acme Tools', brand });

  it('shows the brand name in the accent colour, the logo, and the support address in the footer', () => {
    const mail = branded({
      accentColor: '#FF5500',
      logoUrl: 'https://cdn.acme.test/logo.png',
      supportEmail: 'help@acme.test',
    });
    expect(mail.html).toContain('color:#FF5500');
    expect(mail.html).toContain('border-bottom:3px solid #FF5500');
    expect(mail.html).toContain('<img src="https://cdn.acme.test/logo.png" alt="Acme Tools"');
    expect(mail.html).toMatch(/<span[^>]*>Acme Tools<\/span>/);
    expect(mail.text).toContain('Questions about your license? Write to help@acme.test.');
    expect(mail.html).toContain('Questions about your license? Write to help@acme.test.');
  });

  it('shows the logo alone when the seller hides the text', () => {
    const mail = branded({ logoUrl: 'https://cdn.acme.test/logo.png', isTextHidden: true });
    expect(mail.html).not.toMatch(/<span[^>]*>Acme Tools<\/span>/);
  });

  it('ignores an accent that is not a hex colour and a logo URL that is not http(s)', () => {
    const mail = branded({ accentColor: 'red;background:url(https://evil.example)', logoUrl: 'javascript:alert(1)' });
    expect(mail.html).not.toContain('evil.example');
    expect(mail.html).not.toContain('javascript:');
    expect(mail.html).toContain('color:#8B5CF6');
  });

  it('escapes the brand name', () => {
    const mail = newHolderMail({ sellerName: '<b>Acme</b>', license: undefined, brand: {} });
    expect(mail.html).toContain('&lt;b&gt;Acme&lt;/b&gt;');
    expect(mail.html).not.toContain('<b>Acme</b>');
  });
});
