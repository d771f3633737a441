/** Shown as "Last updated" on the Terms of Service and the Privacy Policy; change it with their text. */
export const LEGAL_LAST_UPDATED = 'Nov 21, 2026';

/** Spec admin §9: the platform keeps 5% of gross sales. */
export const PLATFORM_FEE_PERCENT = 5;

/** Spec admin §9: account data is removed within 30 days of deletion; users must be at least 13. */
export const DATA_DELETION_DAYS = 30;
export const MINIMUM_AGE = 13;
