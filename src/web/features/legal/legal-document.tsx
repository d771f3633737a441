import type { ReactNode } from 'react';

export type LegalSection = { id: string; title: string; body: ReactNode };

type LegalDocumentProps = {
  title: string;
  lastUpdated: string;
  intro: ReactNode;
  sections: LegalSection[];
};

/** Layout shared by the Terms of Service and the Privacy Policy: numbered sections with a contents list. */
export function LegalDocument({ title, lastUpdated, intro, sections }: LegalDocumentProps) {
  return (
    <article className="mx-auto w-full max-w-3xl px-4 py-12 sm:px-6 lg:py-16">
      <header className="border-b pb-8">
        <h1 className="text-3xl font-bold tracking-tight sm:text-4xl">{title}</h1>
        <p className="mt-2 text-sm text-muted-foreground">Last updated: {lastUpdated}</p>
        <div className="mt-6 space-y-4 leading-7 text-muted-foreground">{intro}</div>
      </header>

      <nav aria-label="Sections" className="mt-8 rounded-lg border bg-card p-5">
        <p className="text-sm font-semibold">Contents</p>
        <ol className="mt-3 grid gap-x-6 gap-y-1.5 text-sm sm:grid-cols-2">
          {sections.map((section, index) => (
            <li key={section.id}>
              <a
                href={`#${section.id}`}
                className="text-muted-foreground underline-offset-4 hover:text-foreground hover:underline"
              >
                {index + 1}. {section.title}
              </a>
            </li>
          ))}
        </ol>
      </nav>

      <div className="mt-10 space-y-10">
        {sections.map((section, index) => (
          <section key={section.id} id={section.id} className="scroll-mt-24">
            <h2 className="text-xl font-semibold tracking-tight">
              {index + 1}. {section.title}
            </h2>
            <div className="mt-3 space-y-4 leading-7 text-muted-foreground [&_strong]:text-foreground [&_ul]:list-disc [&_ul]:space-y-2 [&_ul]:pl-6">
              {section.body}
            </div>
          </section>
        ))}
      </div>
    </article>
  );
}
