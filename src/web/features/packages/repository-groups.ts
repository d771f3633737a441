import { errorMessage } from '../../lib/api-error';
import { useCodeHosts, useConnectionRepositories } from '../../lib/code-hosts';
import { hasNothingLoaded } from '../../lib/query-state';
import { type CodeHostRepository, useCodeHostRepositories } from './package-hooks';

// Add Package's repositories, grouped by the code-host connection they come from (issue 30 item 7).

/** A repository of one connection (undefined: the server's default host, for a seller with no connection yet). */
export type PickedRepository = CodeHostRepository & { connectionId?: string };

type RepositoryGroup = {
  key: string;
  /** The connection's label; none for the default host. */
  label?: string;
  connectionId?: string;
  repositories: PickedRepository[] | undefined;
  isLoading: boolean;
  error: string | undefined;
};

/**
 * The repositories of every connection of the seller (issue 30), each read live from its host; a seller with no
 * connection yet sees the server's default host (the local folder, or GitHub through an old grant).
 */
export function useRepositoryGroups(open: boolean) {
  const hosts = useCodeHosts(open);
  const connections = hosts.data?.connections ?? [];
  const perConnection = useConnectionRepositories(
    connections.map((connection) => connection.id),
    open && hosts.isSuccess,
  );
  const useDefault = hosts.isError || (hosts.isSuccess && connections.length === 0);
  const fallback = useCodeHostRepositories(open && useDefault);
  const groups: RepositoryGroup[] = useDefault
    ? [
        {
          key: 'default',
          repositories: fallback.data,
          isLoading: fallback.isLoading,
          error: hasNothingLoaded(fallback) ? errorMessage(fallback.error, 'Failed to load repositories') : undefined,
        },
      ]
    : connections.map((connection, index) => {
        const query = perConnection[index];
        return {
          key: connection.id,
          label: connection.label,
          connectionId: connection.id,
          repositories: query?.data?.map((repository) => ({
            githubId: repository.id,
            fullName: repository.fullName,
            description: repository.description,
            hasComposerJson: repository.hasComposerJson,
            composerName: repository.composerName,
            connectionId: connection.id,
          })),
          isLoading: hosts.isLoading || Boolean(query?.isLoading),
          // A failed refresh keeps the list read before; only a connection never read shows its error.
          error:
            query && hasNothingLoaded(query) ? errorMessage(query.error, 'Failed to load repositories') : undefined,
        };
      });
  const isFetching = hosts.isFetching || fallback.isFetching || perConnection.some((query) => query.isFetching);
  const refetch = async () => {
    const overview = await hosts.refetch();
    if (overview.isError) throw overview.error;
    if ((overview.data?.connections.length ?? 0) === 0) {
      const result = await fallback.refetch();
      if (result.isError) throw result.error;
      return result.data?.length ?? 0;
    }
    const results = await Promise.all(perConnection.map((query) => query.refetch()));
    // A connection that could not be read is a failed refresh, said as one; the lists read before stay.
    const failed = results.find((result) => result.isError);
    if (failed) throw failed.error;
    return results.reduce((total, result) => total + (result.data?.length ?? 0), 0);
  };
  // Sellers still on the old OAuth grant are offered the GitHub App, which reads only the repositories they pick.
  const offerGithubApp =
    Boolean(hosts.data?.available.githubApp) && connections.some((connection) => connection.kind === 'github_oauth');
  return { groups, isLoading: hosts.isLoading, isFetching, refetch, offerGithubApp };
}
