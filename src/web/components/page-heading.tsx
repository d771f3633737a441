import type { ReactNode } from 'react';

/** A page's title and the sentence under it saying what the page is for. */
export function PageHeading({
  title,
  children,
  className,
  as: Wrapper = 'div',
}: {
  title: ReactNode;
  children: ReactNode;
  className?: string;
  as?: 'div' | 'header';
}) {
  return (
    <Wrapper className={className}>
      <h1 className="text-3xl font-bold tracking-tight">{title}</h1>
      <p className="text-muted-foreground">{children}</p>
    </Wrapper>
  );
}
