import type { ReactNode } from 'react';
import { brandCssVariables, showsBrandName } from '../../lib/brand-theme';
import { type BrandFormValues, brandColorInputs } from './brand-form';

/** A titled group of Brand Settings fields. */
export function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <fieldset className="min-w-0 space-y-4">
      <legend className="mb-4 text-sm font-semibold uppercase tracking-wide text-muted-foreground">{title}</legend>
      {children}
    </fieldset>
  );
}

/** A small package host page in the form's colours, so the seller sees the brand before saving. */
export function BrandPreview({ values, logo }: { values: BrandFormValues; logo: string }) {
  const withDefaults = Object.fromEntries(
    brandColorInputs.map(({ field, placeholder }) => [field, values[field].trim() || placeholder]),
  ) as Record<(typeof brandColorInputs)[number]['field'], string>;
  const name = values.brandName.trim() || 'Your Company';
  return (
    <div className="space-y-2">
      <p className="text-xs font-medium text-muted-foreground">Preview of your package host</p>
      <div
        className="overflow-hidden rounded-lg border bg-background text-foreground"
        style={brandCssVariables(withDefaults)}
        data-testid="brand-preview"
      >
        <div
          className="flex items-center gap-2 border-b px-4 py-3"
          style={{ backgroundColor: 'var(--brand-header)', color: 'var(--brand-header-foreground)' }}
        >
          {logo && <img src={logo} alt="" className="h-6 max-w-[8rem] object-contain" />}
          {showsBrandName({ brandLogo: logo, brandHideText: values.brandHideText }) && (
            <span className="font-semibold">{name}</span>
          )}
        </div>
        <div className="space-y-3 p-4">
          <p className="font-semibold">Package Access Only</p>
          <p className="text-sm text-muted-foreground">Install packages with Composer and your access token.</p>
          <div className="flex items-center gap-3 rounded-md border bg-card p-3">
            <span className="flex size-6 items-center justify-center rounded-full bg-primary text-xs font-semibold text-primary-foreground">
              1
            </span>
            <code className="truncate font-mono text-xs">composer config repositories…</code>
          </div>
          <span className="inline-flex h-8 items-center rounded-md bg-primary px-3 text-xs font-medium text-primary-foreground">
            Copy
          </span>
        </div>
      </div>
    </div>
  );
}
