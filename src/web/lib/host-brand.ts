import type { HostBrand, PublicBrand } from '@contract/branding';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest } from './api-client';

export type { HostBrand, PublicBrand };

/** The brand of the seller whose package host this is; null on a host that belongs to no seller. */
export async function fetchHostBrand(): Promise<HostBrand | null> {
  return (await apiRequest<HostBrand | null>('GET', '/api/branding/host')) ?? null;
}

export const hostBrandQuery = () => queryOptions({ queryKey: ['/api/branding/host'], queryFn: fetchHostBrand });
export const useHostBrand = () => useQuery(hostBrandQuery());
