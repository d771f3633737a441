import { describe, expect, it } from 'vitest';
import { lastingLicenseMessages } from '../../../contract/licenses';
import { emptyTermsForm, expiresOnToIso, termsFormOf, termsInput, termsProblems } from './lasting-license-rules';

const now = new Date(2026, 2, 1, 12, 0);

describe('lasting license terms', () => {
  it('sends an empty form as no expiry, unlimited downloads, access ending, no note', () => {
    expect(termsProblems(emptyTermsForm, now)).toEqual({});
    expect(termsInput(emptyTermsForm)).toEqual({
      expiresAt: null,
      downloadLimit: null,
      endMode: 'access',
      note: null,
      versionConstraint: null,
      minimumStability: 'dev',
      seats: null,
    });
  });

  it('ends a license at the end of the chosen day in local time', () => {
    expect(expiresOnToIso('2026-12-31')).toBe(new Date(2026, 11, 31, 23, 59, 59, 999).toISOString());
    expect(expiresOnToIso('')).toBeNull();
  });

  it('refuses a day already over and a download limit that is not a whole number from 1', () => {
    const form = { ...emptyTermsForm, expiresOn: '2026-02-28', downloadLimit: '0' };
    expect(termsProblems(form, now)).toEqual({
      expiresOn: 'The expiry date must be in the future',
      downloadLimit: expect.stringContaining('The download limit must be a whole number from 1'),
    });
    expect(termsProblems({ ...emptyTermsForm, downloadLimit: '2.5' }, now).downloadLimit).toBeDefined();
    expect(termsProblems({ ...emptyTermsForm, expiresOn: '2026-03-01', downloadLimit: '10' }, now)).toEqual({});
  });

  it('round-trips an existing license through the form', () => {
    const license = {
      expiresAt: expiresOnToIso('2027-01-15')!,
      downloadLimit: 25,
      endMode: 'updates' as const,
      note: 'Order 7',
      versionConstraint: '^2.0',
      minimumStability: 'stable' as const,
      seats: 5,
    };
    const form = termsFormOf(license);
    expect(form).toEqual({
      expiresOn: '2027-01-15',
      downloadLimit: '25',
      endMode: 'updates',
      note: 'Order 7',
      versionConstraint: '^2.0',
      minimumStability: 'stable',
      seats: '5',
    });
    expect(termsInput(form)).toEqual(license);
  });

  it('names the seats and the version constraint when they cannot be sent', () => {
    const form = { ...emptyTermsForm, seats: '0', versionConstraint: 'x'.repeat(201) };
    expect(termsProblems(form, now)).toEqual({
      seats: lastingLicenseMessages.seatsInvalid,
      versionConstraint: lastingLicenseMessages.versionConstraintTooLong,
    });
    expect(termsProblems({ ...emptyTermsForm, seats: '3', versionConstraint: '^1.0' }, now)).toEqual({});
  });
});
