import type { GrantEndMode, License, LicenseStability, LicenseTermsInput } from '@contract/licenses';
import {
  LICENSE_DOWNLOAD_LIMIT_MAX,
  LICENSE_VERSION_CONSTRAINT_MAX_LENGTH,
  lastingLicenseMessages,
} from '../../../contract/licenses';

// The terms of a lasting license as the Licenses dialog edits them (issue 16): the same rules the server
// applies to the API's licenses, checked here first so that the seller sees the problem beside the field.

export type LicenseTermsForm = {
  /** `YYYY-MM-DD` from a date input; empty: never expires. */
  expiresOn: string;
  /** Digits from a number input; empty: unlimited. */
  downloadLimit: string;
  endMode: GrantEndMode;
  note: string;
  /** A Composer constraint (`^1.0`); empty: every version. The server checks it with Composer's parser. */
  versionConstraint: string;
  minimumStability: LicenseStability;
  /** Digits; empty: unlimited developer seats. */
  seats: string;
};

export const emptyTermsForm: LicenseTermsForm = {
  expiresOn: '',
  downloadLimit: '',
  endMode: 'access',
  note: '',
  versionConstraint: '',
  minimumStability: 'dev',
  seats: '',
};

/** The stabilities, most stable first, as the dialog offers them. */
export const stabilityLabels: Record<LicenseStability, string> = {
  dev: 'Every version (dev)',
  alpha: 'Alpha and more stable',
  beta: 'Beta and more stable',
  RC: 'Release candidates and stable',
  stable: 'Stable releases only',
};

export const endModeLabels: Record<GrantEndMode, string> = {
  access: 'End all access',
  updates: 'End updates only',
};

export const endModeHints: Record<GrantEndMode, string> = {
  access: 'At expiry the holder can no longer install anything.',
  updates: 'At expiry versions released before the end date stay installable; newer ones do not.',
};

const pad = (value: number) => String(value).padStart(2, '0');
const localDay = (date: Date) => `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;

/** A license ends at the end of the chosen day, in the seller's own time zone. */
export function expiresOnToIso(expiresOn: string): string | null | undefined {
  if (!expiresOn) return null;
  const [year, month, day] = expiresOn.split('-').map(Number);
  if (!year || !month || !day) return undefined;
  const end = new Date(year, month - 1, day, 23, 59, 59, 999);
  return Number.isNaN(end.getTime()) ? undefined : end.toISOString();
}

/** The form's values for an existing license. */
export function termsFormOf(
  license: Pick<
    License,
    'expiresAt' | 'downloadLimit' | 'endMode' | 'note' | 'versionConstraint' | 'minimumStability' | 'seats'
  >,
): LicenseTermsForm {
  return {
    expiresOn: license.expiresAt ? localDay(new Date(license.expiresAt)) : '',
    downloadLimit: license.downloadLimit === null ? '' : String(license.downloadLimit),
    endMode: license.endMode,
    note: license.note ?? '',
    versionConstraint: license.versionConstraint ?? '',
    minimumStability: license.minimumStability,
    seats: license.seats === null ? '' : String(license.seats),
  };
}

/** The earliest day a date input may offer: today. */
export const minimumExpiryDay = (now: Date): string => localDay(now);

export type TermsProblems = Partial<Record<'expiresOn' | 'downloadLimit' | 'versionConstraint' | 'seats', string>>;

/** What is wrong with the form, per field; empty when it can be sent. */
export function termsProblems(form: LicenseTermsForm, now: Date): TermsProblems {
  const problems: TermsProblems = {};
  const expiresAt = expiresOnToIso(form.expiresOn);
  if (expiresAt === undefined || (expiresAt && new Date(expiresAt).getTime() <= now.getTime())) {
    problems.expiresOn = lastingLicenseMessages.expiryInPast;
  }
  const limit = form.downloadLimit.trim();
  if (limit && (!/^\d+$/.test(limit) || Number(limit) < 1 || Number(limit) > LICENSE_DOWNLOAD_LIMIT_MAX)) {
    problems.downloadLimit = lastingLicenseMessages.downloadLimitInvalid;
  }
  if (form.versionConstraint.trim().length > LICENSE_VERSION_CONSTRAINT_MAX_LENGTH) {
    problems.versionConstraint = lastingLicenseMessages.versionConstraintTooLong;
  }
  const seats = form.seats.trim();
  if (seats && (!/^\d+$/.test(seats) || Number(seats) < 1 || Number(seats) > LICENSE_DOWNLOAD_LIMIT_MAX)) {
    problems.seats = lastingLicenseMessages.seatsInvalid;
  }
  return problems;
}

/** The terms as the server takes them; call after termsProblems found nothing. */
export function termsInput(form: LicenseTermsForm): Required<LicenseTermsInput> {
  const limit = form.downloadLimit.trim();
  return {
    expiresAt: expiresOnToIso(form.expiresOn) ?? null,
    downloadLimit: limit ? Number(limit) : null,
    endMode: form.endMode,
    note: form.note.trim() || null,
    versionConstraint: form.versionConstraint.trim() || null,
    minimumStability: form.minimumStability,
    seats: form.seats.trim() ? Number(form.seats.trim()) : null,
  };
}
