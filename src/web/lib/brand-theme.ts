import type { CSSProperties } from 'react';

// A seller's colours as the app's design tokens, so that the package host page (and the Brand Settings
// preview) wear the brand with the same components as the rest of the app.

export type BrandColors = {
  brandColor: string;
  brandBackgroundColor: string;
  brandCardColor: string;
  brandBorderColor: string;
  brandTextColor: string;
  brandSecondaryTextColor: string;
  brandHeaderColor: string;
};

const HEX = /^#(?:[0-9a-fA-F]{3}|[0-9a-fA-F]{6})$/;
const DARK_TEXT = '#111827';
const LIGHT_TEXT = '#FFFFFF';

function channels(hex: string): [number, number, number] {
  const digits = hex.length === 4 ? [...hex.slice(1)].map((digit) => digit + digit).join('') : hex.slice(1);
  return [0, 2, 4].map((index) => Number.parseInt(digits.slice(index, index + 2), 16) / 255) as [
    number,
    number,
    number,
  ];
}

/** WCAG relative luminance of a hex colour. */
export function luminance(hex: string): number {
  const [r, g, b] = channels(hex).map((value) =>
    value <= 0.03928 ? value / 12.92 : ((value + 0.055) / 1.055) ** 2.4,
  ) as [number, number, number];
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

/** White or near-black, whichever reads better on the colour (WCAG contrast ratio). */
export function readableTextOn(hex: string): string {
  if (!HEX.test(hex)) return LIGHT_TEXT;
  const background = luminance(hex);
  const contrastWithWhite = 1.05 / (background + 0.05);
  const contrastWithDark = (background + 0.05) / (luminance(DARK_TEXT) + 0.05);
  return contrastWithWhite >= contrastWithDark ? LIGHT_TEXT : DARK_TEXT;
}

/**
 * CSS custom properties that repaint the tokens inside an element. Colours that are not hex are left out,
 * so a bad value can only fall back to the app's own colour.
 */
export function brandCssVariables(colors: BrandColors): CSSProperties {
  const valid = (value: string) => (HEX.test(value) ? value : undefined);
  const accent = valid(colors.brandColor);
  const background = valid(colors.brandBackgroundColor);
  const card = valid(colors.brandCardColor);
  const border = valid(colors.brandBorderColor);
  const text = valid(colors.brandTextColor);
  const secondary = valid(colors.brandSecondaryTextColor);
  const header = valid(colors.brandHeaderColor);
  const variables: Record<string, string | undefined> = {
    '--primary': accent,
    '--ring': accent,
    '--primary-foreground': accent && readableTextOn(accent),
    '--background': background,
    '--card': card,
    '--popover': card,
    '--border': border,
    // The base layer's `* { border-color }` reads --color-border, which the root resolved already.
    '--color-border': border,
    '--input': border,
    '--foreground': text,
    '--card-foreground': text,
    '--popover-foreground': text,
    '--muted-foreground': secondary,
    '--muted': text && card ? `color-mix(in srgb, ${text} 6%, ${card})` : undefined,
    '--accent': accent && background ? `color-mix(in srgb, ${accent} 12%, ${background})` : undefined,
    '--accent-foreground': text,
    '--brand-header': header,
    '--brand-header-foreground': header && readableTextOn(header),
  };
  return Object.fromEntries(Object.entries(variables).filter(([, value]) => value)) as CSSProperties;
}

/** The name shows beside the logo unless the seller hid it, which needs a logo to stand in for it. */
export const showsBrandName = (brand: { brandLogo: string | null | undefined; brandHideText: boolean }) =>
  !(brand.brandHideText && Boolean(brand.brandLogo?.trim()));
