import type { GrantFacts } from '../../src/server/features/licenses/grant-rules.js';

// The unit tests of the license rules and of what the Composer doors hold start from the same license and change
// only what their case is about.

/** A license that allows everything: active, on an active package, no expiry, no download limit, none downloaded. */
export const OPEN_GRANT_FACTS: Omit<GrantFacts, 'packageName'> = {
  packageIsActive: true,
  status: 'active',
  expiresAt: null,
  endMode: 'access',
  downloadLimit: null,
  downloadCount: 0,
};
