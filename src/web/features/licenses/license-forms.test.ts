import { describe, expect, it } from 'vitest';
import { emptyTermsForm } from './lasting-license-rules';
import { editLicenseForm, emptyTemporaryLicenseForm, issueLicenseForm, temporaryLicenseForm } from './license-forms';

const messagesOf = (result: { success: boolean; error?: { issues: { path: PropertyKey[]; message: string }[] } }) =>
  Object.fromEntries((result.error?.issues ?? []).map((issue) => [issue.path.join('.'), issue.message]));

describe('the temporary license form', () => {
  it('requires an e-mail that is more than blanks', () => {
    for (const email of ['', '   ']) {
      const result = temporaryLicenseForm.safeParse({ ...emptyTemporaryLicenseForm, email });
      expect(messagesOf(result)).toEqual({ email: 'Email is required' });
    }
  });

  it('sends the trimmed e-mail, the chosen days and an empty note as null', () => {
    expect(temporaryLicenseForm.parse({ email: ' a@example.com ', durationDays: 30, note: '  ' })).toEqual({
      email: 'a@example.com',
      durationDays: 30,
      note: null,
    });
  });
});

describe('the lasting license forms', () => {
  const issueValues = { ...emptyTermsForm, email: 'a@example.com', sendEmail: true, packageIds: ['pkg-1'] };

  it('issues with the terms as the contract takes them: no expiry, unlimited, every version', () => {
    expect(issueLicenseForm.parse({ ...issueValues, downloadLimit: '5', note: ' Invoice 7 ' })).toEqual({
      email: 'a@example.com',
      sendEmail: true,
      packageIds: ['pkg-1'],
      expiresAt: null,
      downloadLimit: 5,
      endMode: 'access',
      note: 'Invoice 7',
      versionConstraint: null,
      minimumStability: 'dev',
      seats: null,
    });
  });

  it('puts each term problem and a blank e-mail on its own field', () => {
    const result = issueLicenseForm.safeParse({
      ...issueValues,
      email: ' ',
      expiresOn: '2020-01-01',
      downloadLimit: '0',
      seats: '1.5',
    });
    expect(messagesOf(result)).toEqual({
      email: 'Email is required',
      expiresOn: 'The expiry date must be in the future',
      downloadLimit: expect.stringContaining('The download limit must be a whole number from 1'),
      seats: 'seats must be a whole number from 1, or empty for unlimited',
    });
  });

  it('sends every term on edit, so that an emptied field clears it', () => {
    expect(editLicenseForm.parse({ ...emptyTermsForm, seats: '3' })).toMatchObject({ downloadLimit: null, seats: 3 });
  });
});
