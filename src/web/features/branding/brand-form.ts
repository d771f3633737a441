import type { BrandColorField, BrandSettings, UpdateBrandSettingsInput } from '@contract/branding';
import { z } from 'zod';
import { BRAND_COLOR_DEFAULTS, brandColorShape, HEX_COLOR, updateBrandSettingsInput } from '../../../contract/branding';
import { BRAND_COLOR_PLACEHOLDER } from '../../lib/constants';
import { intoContract } from '../../lib/contract-form';

// The Brand Settings form's values and how they travel to and from the server.

export type BrandFormValues = {
  brandName: string;
  brandLogo: string;
  brandHideText: boolean;
  brandDomain: string;
  supportEmail: string;
  emailFromName: string;
  emailFromAddress: string;
  emailReplyTo: string;
} & Record<BrandColorField, string>;

/** The colour fields in the order the form shows them, with their labels and placeholders. */
export const brandColorInputs: { field: BrandColorField; label: string; placeholder: string; hint: string }[] = [
  { field: 'brandColor', label: 'Accent Color', placeholder: BRAND_COLOR_PLACEHOLDER, hint: 'Buttons, links, steps' },
  {
    field: 'brandBackgroundColor',
    label: 'Background Color',
    placeholder: BRAND_COLOR_DEFAULTS.brandBackgroundColor,
    hint: 'Page background',
  },
  { field: 'brandCardColor', label: 'Card Color', placeholder: BRAND_COLOR_DEFAULTS.brandCardColor, hint: 'Panels' },
  {
    field: 'brandBorderColor',
    label: 'Border Color',
    placeholder: BRAND_COLOR_DEFAULTS.brandBorderColor,
    hint: 'Lines and outlines',
  },
  { field: 'brandTextColor', label: 'Text Color', placeholder: BRAND_COLOR_DEFAULTS.brandTextColor, hint: 'Headings' },
  {
    field: 'brandSecondaryTextColor',
    label: 'Secondary Text Color',
    placeholder: BRAND_COLOR_DEFAULTS.brandSecondaryTextColor,
    hint: 'Descriptions',
  },
  {
    field: 'brandHeaderColor',
    label: 'Header Color',
    placeholder: BRAND_COLOR_DEFAULTS.brandHeaderColor,
    hint: 'Top bar',
  },
];

export function formValuesFrom(settings: BrandSettings): BrandFormValues {
  return {
    brandName: settings.brandName,
    brandLogo: settings.brandLogo ?? '',
    brandHideText: settings.brandHideText,
    brandColor: settings.brandColor,
    brandBackgroundColor: settings.brandBackgroundColor,
    brandCardColor: settings.brandCardColor,
    brandBorderColor: settings.brandBorderColor,
    brandTextColor: settings.brandTextColor,
    brandSecondaryTextColor: settings.brandSecondaryTextColor,
    brandHeaderColor: settings.brandHeaderColor,
    brandDomain: settings.brandDomain ?? '',
    supportEmail: settings.supportEmail ?? '',
    emailFromName: settings.emailFromName ?? '',
    emailFromAddress: settings.emailFromAddress ?? '',
    emailReplyTo: settings.emailReplyTo ?? '',
  };
}

const orNull = (value: string) => value.trim() || null;

/** Every field is sent; an empty one clears the saved value (a colour or the name then reads its default). */
export function saveInputFrom(values: BrandFormValues): UpdateBrandSettingsInput {
  const hasLogo = Boolean(values.brandLogo.trim());
  return {
    brandName: orNull(values.brandName),
    brandLogo: orNull(values.brandLogo),
    // Hiding the name only makes sense next to a logo.
    brandHideText: hasLogo && values.brandHideText,
    brandColor: orNull(values.brandColor),
    brandBackgroundColor: orNull(values.brandBackgroundColor),
    brandCardColor: orNull(values.brandCardColor),
    brandBorderColor: orNull(values.brandBorderColor),
    brandTextColor: orNull(values.brandTextColor),
    brandSecondaryTextColor: orNull(values.brandSecondaryTextColor),
    brandHeaderColor: orNull(values.brandHeaderColor),
    brandDomain: orNull(values.brandDomain)?.toLowerCase() ?? null,
    supportEmail: orNull(values.supportEmail),
    emailFromName: orNull(values.emailFromName),
    emailFromAddress: orNull(values.emailFromAddress),
    emailReplyTo: orNull(values.emailReplyTo),
  };
}

/** The form's schema (react-hook-form's resolver): its values, sent as saveInputFrom makes them, checked by the contract. */
export const brandFormSchema = z
  .object({
    brandName: z.string(),
    brandLogo: z.string(),
    brandHideText: z.boolean(),
    ...brandColorShape(() => z.string()),
    brandDomain: z.string(),
    supportEmail: z.string(),
    emailFromName: z.string(),
    emailFromAddress: z.string(),
    emailReplyTo: z.string(),
  })
  .transform(intoContract(updateBrandSettingsInput, saveInputFrom));

/** What a colour picker can show: `#RRGGBB`, from `#RGB` too; anything else shows the field's default. */
export function colorPickerValue(value: string, fallback: string): string {
  const candidate = HEX_COLOR.test(value.trim()) ? value.trim() : fallback;
  if (candidate.length === 4) {
    const [, r, g, b] = candidate;
    return `#${r}${r}${g}${g}${b}${b}`.toLowerCase();
  }
  return candidate.toLowerCase();
}

/** A colour the server will refuse, so the form can say so before saving. Empty is fine (the default). */
export const isInvalidColor = (value: string) => Boolean(value.trim()) && !HEX_COLOR.test(value.trim());
