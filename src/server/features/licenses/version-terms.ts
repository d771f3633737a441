import { type LicenseTermsInput, lastingLicenseMessages } from '../../../contract/licenses.js';
import type { Database } from '../../db/client.js';
import { AppError } from '../../http/errors.js';
import { parseLicenseTerms } from '../../lib/composer-versions/license-terms.js';
import { InvalidConstraintError } from '../../lib/composer-versions/version-constraints.js';
import { countDeveloperTokens } from './seats.js';

// A license's version terms and seats (issue 31), checked the same way on every door (Management, API v1, a sale):
// the constraint with the project's port of composer/semver, so a constraint Packgate stores is one Composer parses.

export type VersionTerms = {
  versionConstraint?: string | null;
  minimumStability?: 'stable' | 'RC' | 'beta' | 'alpha' | 'dev';
  seats?: number | null;
};

/** The fields given, checked; a blank constraint is none. Throws 400 naming the field. */
export function parseVersionTerms(input: Pick<LicenseTermsInput, keyof VersionTerms>): VersionTerms {
  const terms: VersionTerms = {};
  if (input.versionConstraint !== undefined) terms.versionConstraint = checkedConstraint(input.versionConstraint);
  if (input.minimumStability !== undefined) terms.minimumStability = input.minimumStability;
  if (input.seats !== undefined) {
    if (input.seats !== null && (!Number.isInteger(input.seats) || input.seats < 1)) {
      throw new AppError('VALIDATION_FAILED', lastingLicenseMessages.seatsInvalid);
    }
    terms.seats = input.seats;
  }
  return terms;
}

/** A constraint Composer parses, trimmed; null for none. */
export function checkedConstraint(text: string | null): string | null {
  if (text === null || text.trim() === '') return null;
  try {
    return parseLicenseTerms(text).constraintText;
  } catch (error) {
    if (!(error instanceof InvalidConstraintError)) throw error;
    throw new AppError(
      'VALIDATION_FAILED',
      `versionConstraint is not a Composer version constraint: ${error.message}`,
      {
        suggestion: 'Write it as in composer.json, for example ^1.0 or >=2.0 <3.0.',
      },
    );
  }
}

/**
 * Refuses seats below the developer tokens the holder already has: the seller would otherwise lock out developers
 * without saying who. Revoking tokens first (the holder's portal, or API v1) makes room.
 */
export async function assertSeatsCoverTokens(
  db: Pick<Database, 'select'>,
  customerId: string,
  seats: number | null | undefined,
  now: Date,
): Promise<void> {
  if (seats === null || seats === undefined) return;
  const used = await countDeveloperTokens(db, customerId, now);
  if (used > seats) {
    throw new AppError(
      'VALIDATION_FAILED',
      `seats (${seats}) is below the ${used} developer tokens this holder already has`,
      { suggestion: 'Revoke developer tokens first, or give at least as many seats.' },
    );
  }
}
