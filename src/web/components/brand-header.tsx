import type { PublicBrand } from '@contract/branding';
import { showsBrandName } from '../lib/brand-theme';
import { cn } from '../lib/cn';

/**
 * The header of a page on a seller's package host: the seller's logo and name on their header colour. Sits inside an
 * element that carries `brandCssVariables(brand)`.
 */
export function BrandHeader({ brand, className }: { brand: PublicBrand; className?: string }) {
  const showsName = showsBrandName(brand);
  return (
    <header
      className="border-b"
      style={{ backgroundColor: 'var(--brand-header)', color: 'var(--brand-header-foreground)' }}
      data-testid="brand-header"
    >
      <div className={cn('mx-auto flex h-16 w-full max-w-3xl items-center gap-3 px-4 sm:px-6', className)}>
        {brand.brandLogo && (
          <img
            src={brand.brandLogo}
            alt={showsName ? '' : brand.brandName}
            className="h-9 max-w-[12rem] object-contain"
            data-testid="brand-logo"
          />
        )}
        {showsName && (
          <span className="truncate text-lg font-semibold" data-testid="brand-name">
            {brand.brandName}
          </span>
        )}
      </div>
    </header>
  );
}
