import { LOGO_ACCEPTED_TYPES, LOGO_MAX_BYTES } from '../../lib/constants';

// The client's checks of a logo before it is uploaded (spec seller-app §5). The server decides the type
// again by the file's content; these only spare the seller a pointless upload.

export type LogoFileProblem = { title: string; description: string };

export const INVALID_LOGO_TYPE: LogoFileProblem = {
  title: 'Invalid file type',
  description: 'Please upload an image file (SVG, PNG, JPG, GIF, or WebP)',
};

export const LOGO_TOO_LARGE: LogoFileProblem = {
  title: 'File too large',
  description: 'Please upload an image smaller than 5MB',
};

/** What the file input offers: the five image types only. */
export const LOGO_INPUT_ACCEPT = LOGO_ACCEPTED_TYPES.join(',');

const acceptedTypes = new Set<string>([...LOGO_ACCEPTED_TYPES, 'image/jpg']);

/** Why a chosen file cannot be a logo, or null when it may be uploaded. */
export function logoFileProblem(file: { type: string; size: number }): LogoFileProblem | null {
  if (!acceptedTypes.has(file.type.toLowerCase())) return INVALID_LOGO_TYPE;
  if (file.size > LOGO_MAX_BYTES) return LOGO_TOO_LARGE;
  return null;
}
