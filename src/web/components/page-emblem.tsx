import type { LucideIcon } from 'lucide-react';

/** A stand-alone page's icon above its title (not found, Composer-only hosts), large in a tinted circle. */
export function PageEmblem({ icon: Icon }: { icon: LucideIcon }) {
  return (
    <div className="mx-auto flex size-16 items-center justify-center rounded-full bg-primary/10 text-primary">
      <Icon className="size-8" aria-hidden="true" />
    </div>
  );
}
