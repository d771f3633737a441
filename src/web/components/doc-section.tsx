import type { LucideIcon } from 'lucide-react';
import type { ReactNode } from 'react';

// Tailwind reads class names from the source, so each link style is written out whole.
const linkStyles = {
  /** Every link in the section reads as a link (prose pages). */
  all: '[&_a]:font-medium [&_a]:text-primary [&_a]:underline-offset-4 [&_a:hover]:underline',
  /** Only links inside paragraphs: sections that also hold buttons rendered as links keep their own look. */
  paragraphs: '[&_p>a]:font-medium [&_p>a]:text-primary [&_p>a]:underline-offset-4 [&_p>a:hover]:underline',
} as const;

/** A titled section of a documentation page, the target of its sidebar's `#id` links. */
export function DocSection({
  id,
  title,
  icon: Icon,
  links = 'all',
  children,
}: {
  id: string;
  title: string;
  icon: LucideIcon;
  links?: keyof typeof linkStyles;
  children: ReactNode;
}) {
  return (
    <section id={id} aria-labelledby={`${id}-heading`} className="scroll-mt-20 space-y-4">
      <h2 id={`${id}-heading`} className="flex items-center gap-2 text-2xl font-bold tracking-tight">
        <Icon className="size-6 text-primary" aria-hidden="true" />
        {title}
      </h2>
      <div className={`space-y-4 text-muted-foreground ${linkStyles[links]} [&_strong]:text-foreground`}>
        {children}
      </div>
    </section>
  );
}

/** A documentation page's sections as links: a row that scrolls on a phone, a column that stays in view beside them. */
export function DocNav({
  label,
  sections,
}: {
  label: string;
  sections: readonly { id: string; title: string; icon: LucideIcon }[];
}) {
  return (
    <nav aria-label={label} className="lg:sticky lg:top-20 lg:self-start">
      <ul className="flex gap-2 overflow-x-auto pb-2 text-sm lg:flex-col lg:gap-1 lg:overflow-visible lg:pb-0">
        {sections.map(({ id, title, icon: Icon }) => (
          <li key={id} className="shrink-0">
            <a
              href={`#${id}`}
              className="flex items-center gap-2 rounded-md px-3 py-2 text-muted-foreground hover:bg-accent hover:text-foreground"
            >
              <Icon className="size-4" aria-hidden="true" />
              {title}
            </a>
          </li>
        ))}
      </ul>
    </nav>
  );
}
