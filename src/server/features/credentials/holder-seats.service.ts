import type { AppContext } from '../../context.js';

// Stands in for the licenses domain's seatLimitForHolder (issue 31) until it lands: no license limits seats yet.
// The doors that create tokens (API v1, the portal) ask it and hand the answer to createHolderToken.

export async function seatLimitForHolder(_ctx: AppContext, _customerId: string): Promise<number | null> {
  return null;
}
