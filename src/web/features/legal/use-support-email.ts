import { usePublicConfig } from '@web/lib/public-config';

/** Used until /api/public-config answers, and when it cannot be reached. */
export const FALLBACK_SUPPORT_EMAIL = 'support@packgate.localhost';

/** The deployment's support address (SUPPORT_EMAIL), for mailto links on public pages. */
export function useSupportEmail(): string {
  const { data } = usePublicConfig();
  return data?.supportEmail || FALLBACK_SUPPORT_EMAIL;
}
