import { CheckCircle2, FileCode2, GitBranch, Loader2, Lock } from 'lucide-react';
import { Badge } from '../../components/ui/badge';
import { cn } from '../../lib/cn';
import type { Package } from './package-hooks';
import type { PickedRepository } from './repository-groups';

// Add Package's first step (spec seller-app §4): the repositories of a code-host connection, those that can become a
// package first, each with whether it has a composer.json or is already a package.

/** The packages already made, by the repository they come from: a repository becomes one package only. */
export function packagesByRepository(packages: Package[] | undefined): Map<string, Package> {
  return new Map((packages ?? []).map((pkg) => [pkg.githubRepoId, pkg]));
}

export function RepositoryList({
  repositories,
  isLoading,
  error,
  existing,
  selectedId,
  onSelect,
}: {
  repositories: PickedRepository[] | undefined;
  isLoading: boolean;
  error: string | undefined;
  existing: Map<string, Package>;
  selectedId: string | undefined;
  onSelect: (repository: PickedRepository) => void;
}) {
  const frame = 'h-80 overflow-y-auto rounded-md border';
  if (isLoading) {
    return (
      <div className={cn(frame, 'flex items-center justify-center gap-2 text-sm text-muted-foreground')}>
        <Loader2 className="size-4 animate-spin" /> Loading repositories...
      </div>
    );
  }
  if (error) {
    return (
      <div className={cn(frame, 'flex items-center justify-center p-6 text-center text-sm text-destructive')}>
        {error}
      </div>
    );
  }
  if (!repositories?.length) {
    return (
      <div className={cn(frame, 'flex flex-col items-center justify-center gap-2 p-6 text-center')}>
        <GitBranch className="size-8 text-muted-foreground" />
        <p className="font-medium">No repositories found</p>
        <p className="text-sm text-muted-foreground">
          Make sure you have private repositories with a composer.json file in their default branch.
        </p>
      </div>
    );
  }
  // Repositories that can still become a package first; those already packages last, marked and not selectable.
  const ordered = [...repositories].sort((a, b) => Number(existing.has(a.githubId)) - Number(existing.has(b.githubId)));
  return (
    <div className={cn(frame, 'divide-y')} role="radiogroup" aria-label="Repositories">
      {ordered.map((repository) => {
        const isSelected = repository.githubId === selectedId;
        const pkg = existing.get(repository.githubId);
        const isSelectable = repository.hasComposerJson && !pkg;
        return (
          // biome-ignore lint/a11y/useSemanticElements: a whole row is the choice, with its badge and description
          <button
            key={repository.githubId}
            type="button"
            role="radio"
            aria-checked={isSelected}
            disabled={!isSelectable}
            onClick={() => onSelect(repository)}
            className={cn(
              'flex w-full items-start gap-3 p-3 text-left transition-colors focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-inset focus-visible:ring-ring',
              isSelectable ? 'hover:bg-accent' : 'cursor-not-allowed opacity-60',
              isSelected && 'bg-primary/10 hover:bg-primary/10',
            )}
            data-testid="repository-option"
          >
            <Lock className="mt-0.5 size-4 shrink-0 text-muted-foreground" />
            <span className="min-w-0 flex-1">
              {/* Wrapped, never cut: names that differ only at the end must stay apart on a phone. */}
              <span className="block text-sm font-medium [overflow-wrap:anywhere]">{repository.fullName}</span>
              {pkg ? (
                <span className="block text-xs text-muted-foreground [overflow-wrap:anywhere]">
                  Already added as <span className="font-mono">{pkg.packageName}</span>
                </span>
              ) : (
                repository.description && (
                  <span className="block truncate text-xs text-muted-foreground">{repository.description}</span>
                )
              )}
            </span>
            {pkg ? (
              <Badge variant="secondary" className="shrink-0 gap-1">
                <CheckCircle2 className="size-3" /> Added
              </Badge>
            ) : repository.hasComposerJson ? (
              <Badge variant="outline" className="shrink-0 gap-1">
                <FileCode2 className="size-3" />
                {/* On a phone the icon alone, so that the name keeps the width. */}
                <span className="sr-only sm:not-sr-only">composer.json</span>
              </Badge>
            ) : (
              <Badge variant="secondary" className="shrink-0">
                No composer.json
              </Badge>
            )}
          </button>
        );
      })}
    </div>
  );
}
