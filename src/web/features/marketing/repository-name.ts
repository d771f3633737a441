// Labels that say nothing about whose host this is, skipped when naming the repository.
const GENERIC_HOST_LABELS = new Set(['composer', 'packages', 'repo', 'repository', 'www', 'localhost']);

/** A readable Composer repository name for this host: `acme` for acme.composer.localhost or composer.acme.com. */
export function repositoryNameFor(hostname: string): string {
  const label = hostname
    .toLowerCase()
    .split('.')
    .find((part) => part && !GENERIC_HOST_LABELS.has(part) && !/^\d+$/.test(part));
  return label?.replace(/[^a-z0-9-]/g, '') || 'private';
}
