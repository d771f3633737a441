import type { ImpersonationResponse } from '@contract/admin';
import { apiRequest } from './api-client';

/** Switches this session to the given user; the admin stays remembered for stopping. */
export const startImpersonation = (userId: string) =>
  apiRequest<ImpersonationResponse>('POST', '/api/admin/impersonate', { userId });

/** Returns the session to the admin who started the impersonation. */
export const stopImpersonation = () => apiRequest<ImpersonationResponse>('POST', '/api/admin/stop-impersonation');

export const impersonationToasts = {
  started: { title: 'Impersonation started', description: 'You are now viewing as this user' },
  stopped: { title: 'Impersonation stopped', description: 'You are back to your admin account' },
} as const;
