import { z } from 'zod';

export const subscriptionStatuses = [
  'trial',
  'active',
  'trial_expired',
  'inactive',
  'tier_selection_required',
  'expired',
] as const;
export type SubscriptionStatusValue = (typeof subscriptionStatuses)[number];

/** What is stored for a seller; trial_expired and tier_selection_required are only ever computed. */
export const storedSubscriptionStatuses = ['trial', 'active', 'inactive', 'expired'] as const;

/**
 * GET /api/platform-subscription/status (spec seller-app §3).
 * - subscriptionStatus: the computed state the app acts on.
 * - status: the stored record's status (trial, active, inactive, expired), null without a record.
 * - tier: the tier id of the record (null for admins and sellers without one).
 * - selectedTier: the tier to preselect in the plan chooser (the record's, else the one from sign-in).
 * - trialDaysLeft / trialHoursLeft: rounded up, during a trial; 0 once it has expired; null otherwise.
 * - trialExpiredDaysAgo: whole days since the trial ended (0 on the day it ends); null otherwise.
 * - expiresAt: ISO time the trial or the paid period ends; null when unknown.
 */
export const subscriptionStatusResponse = z.object({
  subscriptionStatus: z.enum(subscriptionStatuses),
  hasAccess: z.boolean(),
  hasSubscription: z.boolean(),
  trialDaysLeft: z.number().int().nullable(),
  trialHoursLeft: z.number().int().nullable(),
  trialExpiredDaysAgo: z.number().int().nullable(),
  selectedTier: z.string().nullable(),
  message: z.string(),
  tier: z.string().nullable(),
  status: z.enum(storedSubscriptionStatuses).nullable(),
  expiresAt: z.string().nullable(),
});
export type SubscriptionStatus = z.infer<typeof subscriptionStatusResponse>;

/** The tier (and the body) are optional here so that a missing one gets the spec's sentence, not a field error. */
export const startTrialInput = z.object({ tier: z.string().trim().max(64).optional() }).nullish();
export type StartTrialInput = z.infer<typeof startTrialInput>;

/** POST /api/platform-subscription/start-trial; alreadyActive when nothing was started. */
export const startTrialResponse = z.object({
  success: z.literal(true),
  alreadyActive: z.boolean(),
  message: z.string(),
  status: subscriptionStatusResponse,
});
export type StartTrialResponse = z.infer<typeof startTrialResponse>;

export const SELECT_TIER_MESSAGE = 'Please select a subscription tier';
