import { brandingMessages } from '../../../contract/branding';
import { LOGO_ACCEPT, LOGO_MAX_BYTES } from '../../lib/constants';

// The client's checks of a logo before it is uploaded (spec seller-app §5). The server decides the type
// again by the file's content; these only spare the seller a pointless upload.

export type LogoFileProblem = { title: string; description: string };

export const INVALID_LOGO_TYPE: LogoFileProblem = {
  title: brandingMessages.invalidFileType.error,
  description: brandingMessages.invalidFileType.message,
};

export const LOGO_TOO_LARGE: LogoFileProblem = {
  title: brandingMessages.fileTooLarge.error,
  description: brandingMessages.fileTooLarge.message,
};

/** What the file input offers: the five image types only. */
export const LOGO_INPUT_ACCEPT = LOGO_ACCEPT;

const acceptedTypes = new Set<string>([...LOGO_ACCEPT.split(','), 'image/jpg']);

/** Why a chosen file cannot be a logo, or null when it may be uploaded. */
export function logoFileProblem(file: { type: string; size: number }): LogoFileProblem | null {
  if (!acceptedTypes.has(file.type.toLowerCase())) return INVALID_LOGO_TYPE;
  if (file.size > LOGO_MAX_BYTES) return LOGO_TOO_LARGE;
  return null;
}
