import { describe, expect, it } from 'vitest';
import { itAnswersEachCase } from '../../../test/support/case-tables.js';
import { BRAND_COLOR_DEFAULTS } from '../../contract/branding';
import { brandCssVariables, readableTextOn, showsBrandName } from './brand-theme';

const defaults = BRAND_COLOR_DEFAULTS;

describe('brand theme', () => {
  it('maps the brand colours onto the design tokens', () => {
    const variables = brandCssVariables(defaults) as Record<string, string>;
    expect(variables['--primary']).toBe('#8B5CF6');
    expect(variables['--background']).toBe('#FFFFFF');
    expect(variables['--card']).toBe('#F9FAFB');
    expect(variables['--border']).toBe('#E5E7EB');
    expect(variables['--foreground']).toBe('#111827');
    expect(variables['--muted-foreground']).toBe('#6B7280');
    expect(variables['--brand-header']).toBe('#FFFFFF');
    expect(variables['--brand-header-foreground']).toBe('#111827');
  });

  it('leaves out anything that is not a hex colour', () => {
    const variables = brandCssVariables({ ...defaults, brandColor: 'red; background: url(x)' }) as Record<
      string,
      string
    >;
    expect(variables['--primary']).toBeUndefined();
    expect(variables['--accent']).toBeUndefined();
  });

  itAnswersEachCase(readableTextOn, {
    'picks readable text for buttons and the header': [
      ['#8B5CF6', '#FFFFFF'],
      ['#000', '#FFFFFF'],
      ['#FDE047', '#111827'],
      ['#FFFFFF', '#111827'],
    ],
  });

  itAnswersEachCase(showsBrandName, {
    'hides the name only when asked to and a logo stands in for it': [
      [{ brandLogo: '/api/branding/logos/u/a.png', brandHideText: true }, false],
      [{ brandLogo: null, brandHideText: true }, true],
      [{ brandLogo: '  ', brandHideText: true }, true],
      [{ brandLogo: 'https://acme.com/logo.svg', brandHideText: false }, true],
    ],
  });
});
