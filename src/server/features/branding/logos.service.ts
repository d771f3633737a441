import { randomBytes } from 'node:crypto';
import { brandingMessages, LOGO_PATH_PREFIX, type UploadLogoResponse } from '../../../contract/branding.js';
import { isEntityId } from '../../../contract/ids.js';
import type { StoredObject } from '../../adapters/storage/object-storage.js';
import type { AppContext } from '../../context.js';
import { AppError } from '../../http/errors.js';
import { detectRasterFormat, type LogoFormat, logoContentTypes, svgTextOf } from './logo-type.js';
import { SvgRejectedError } from './svg-limits.js';
import { type SvgSanitizer, SvgSanitizerBusyError } from './svg-sanitizer-pool.js';

// Uploaded logos (spec §4 "Logo upload", §5): the type is decided by the bytes, SVG is stored sanitized, and the
// name is random, so that a stored logo never changes and can be cached for good.

const LOGO_FILE = /^[a-f0-9]{32}\.(?:png|jpg|gif|webp|svg)$/;

export function invalidFileType(suggestion?: string): AppError {
  return new AppError('VALIDATION_FAILED', brandingMessages.invalidFileType.message, {
    title: brandingMessages.invalidFileType.error,
    suggestion,
  });
}

export function fileTooLarge(): AppError {
  return new AppError('PAYLOAD_TOO_LARGE', brandingMessages.fileTooLarge.message, {
    title: brandingMessages.fileTooLarge.error,
  });
}

/**
 * The bytes to store and their format: raster files as they are, SVG sanitized off the event loop; else 400 Invalid
 * file type, with what was wrong (a limit, unsafe content, the deadline) as the suggestion.
 */
export async function prepareLogo(
  sanitizer: SvgSanitizer,
  bytes: Buffer,
): Promise<{ format: LogoFormat; body: Buffer }> {
  const raster = detectRasterFormat(bytes);
  if (raster) return { format: raster, body: bytes };
  const svgText = svgTextOf(bytes);
  if (svgText === undefined) throw invalidFileType();
  try {
    return { format: 'svg', body: Buffer.from(await sanitizer.sanitize(svgText), 'utf8') };
  } catch (error) {
    if (error instanceof SvgRejectedError) throw invalidFileType(error.reason);
    if (error instanceof SvgSanitizerBusyError) {
      throw new AppError('UNAVAILABLE', error.message, {
        suggestion: 'Upload the logo again in a few seconds.',
        headers: { 'retry-after': '5' },
      });
    }
    throw error;
  }
}

/** POST /api/user/upload-logo-temp: stores the logo under the seller's folder and answers where it is served. */
export async function storeLogo(ctx: AppContext, userId: string, bytes: Buffer): Promise<UploadLogoResponse> {
  const { format, body } = await prepareLogo(ctx.svgSanitizer, bytes);
  const file = `${randomBytes(16).toString('hex')}.${format}`;
  await ctx.storage.put(`logos/${userId}/${file}`, body, { contentType: logoContentTypes[format] });
  return { logoUrl: `${LOGO_PATH_PREFIX}${userId}/${file}` };
}

/** GET /api/branding/logos/{userId}/{file}: the stored logo, or 404 for any other name. */
export async function openLogo(ctx: AppContext, userId: string, file: string): Promise<StoredObject> {
  const notFound = new AppError('NOT_FOUND', 'Logo not found');
  if (!isEntityId(userId) || !LOGO_FILE.test(file)) throw notFound;
  const stored = await ctx.storage.get(`logos/${userId}/${file}`);
  if (!stored) throw notFound;
  return stored;
}
