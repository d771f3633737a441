import { useState } from 'react';
import { CopyButton } from '../../components/copy-button';
import { type ApiEndpoint, SAMPLE_LANGUAGES, type SampleLanguage, type SampleValues } from '../../lib/api-v1-samples';
import { cn } from '../../lib/cn';

/** A code block under a bar holding its label and a copy button that confirms with Copied! for 2 s. */
export function CodeBlock({ code, label, className }: { code: string; label: string; className?: string }) {
  return (
    <div className={cn('overflow-hidden rounded-md border bg-muted/60', className)}>
      <div className="flex items-center justify-between gap-2 border-b px-3 py-1.5">
        <span className="text-xs font-medium text-muted-foreground">{label}</span>
        <CopyButton value={code} label={`Copy ${label}`} variant="ghost" className="h-7 px-2 text-xs" />
      </div>
      <pre className="overflow-x-auto p-4 font-mono text-xs leading-5 sm:text-sm sm:leading-6">
        <code>{code}</code>
      </pre>
    </div>
  );
}

/** One endpoint's sample in cURL, JavaScript and PHP; the language chosen is shared by the caller. */
export function CodeSample({
  endpoint,
  values,
  language,
  onLanguageChange,
}: {
  endpoint: ApiEndpoint;
  values: SampleValues;
  language: SampleLanguage;
  onLanguageChange: (language: SampleLanguage) => void;
}) {
  const current = SAMPLE_LANGUAGES.find((candidate) => candidate.id === language) ?? SAMPLE_LANGUAGES[0]!;
  return (
    <div className="space-y-2" data-testid="code-sample">
      <div role="radiogroup" aria-label="Sample language" className="inline-flex rounded-md bg-muted p-1 text-xs">
        {SAMPLE_LANGUAGES.map((candidate) => (
          // biome-ignore lint/a11y/useSemanticElements: a segmented control reads better than radio inputs here
          <button
            key={candidate.id}
            type="button"
            role="radio"
            aria-checked={candidate.id === current.id}
            onClick={() => onLanguageChange(candidate.id)}
            className={cn(
              'rounded-sm px-3 py-1 font-medium text-muted-foreground transition-colors',
              candidate.id === current.id && 'bg-background text-foreground shadow-sm',
            )}
          >
            {candidate.label}
          </button>
        ))}
      </div>
      <CodeBlock code={current.render(endpoint, values)} label={current.label} />
    </div>
  );
}

/** The language a page's samples show, remembered while the page is open. */
export function useSampleLanguage() {
  return useState<SampleLanguage>('curl');
}
