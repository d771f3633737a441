import type { PublicBrand } from '@contract/branding';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../lib/api-client';
import { isApiRequestError } from '../../lib/api-error';

export type { PublicBrand };

/** The brand of the seller whose package host this is; null on a host that belongs to no seller (404). */
export async function fetchHostBrand(): Promise<PublicBrand | null> {
  try {
    return (await apiRequest<PublicBrand>('GET', '/api/branding/host')) ?? null;
  } catch (error) {
    if (isApiRequestError(error) && error.status === 404) return null;
    throw error;
  }
}

export const hostBrandQuery = () => queryOptions({ queryKey: ['/api/branding/host'], queryFn: fetchHostBrand });
export const useHostBrand = () => useQuery(hostBrandQuery());
