import type {
  BrandSettings,
  UpdateBrandSettingsInput,
  UploadLogoResponse,
  VerifyDomainResponse,
} from '@contract/branding';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { LOGO_FIELD } from '../../../contract/branding';
import { failureToast } from '../../components/failure-toast';
import { toast } from '../../components/ui/use-toast';
import { apiRequest, getJson } from '../../lib/api-client';

export type { BrandSettings, UpdateBrandSettingsInput };

export const BRANDING_PATH = '/api/user/default-branding';

export const brandSettingsQuery = () => queryOptions({ queryKey: [BRANDING_PATH], queryFn: getJson<BrandSettings> });
export const useBrandSettings = () => useQuery(brandSettingsQuery());

export function useSaveBrandSettings() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: UpdateBrandSettingsInput) => apiRequest<BrandSettings>('PUT', BRANDING_PATH, input),
    onSuccess: (saved) => {
      queryClient.setQueryData(brandSettingsQuery().queryKey, saved);
      toast({ title: 'Branding Saved', description: 'Default branding settings saved successfully.' });
    },
    onError: (error) => failureToast('Error', error, 'Failed to save branding'),
  });
}

/** Sends the logo as multipart field `logo`; the browser sets the content type with its boundary. */
export function uploadLogo(file: File): Promise<UploadLogoResponse> {
  const body = new FormData();
  body.append(LOGO_FIELD, file);
  return apiRequest<UploadLogoResponse>('POST', '/api/user/upload-logo-temp', body);
}

/** Looks up the saved custom domain's CNAME now and keeps the answer's settings. */
export function useVerifyDomain() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => apiRequest<VerifyDomainResponse>('POST', `${BRANDING_PATH}/verify-domain`),
    onSuccess: (result) => {
      queryClient.setQueryData(brandSettingsQuery().queryKey, result.settings);
      toast({
        title: result.verified ? 'Domain Verified' : 'Domain Not Verified Yet',
        description: result.message,
        variant: result.verified ? 'default' : 'destructive',
      });
    },
    onError: (error) => failureToast('Error', error, 'Failed to verify domain'),
  });
}
