import path from 'node:path';
import { runGit } from './git-command.js';
import type { CloneSource } from './git-mirror.js';
import { listRemoteReferences, MAX_REFERENCES_BYTES, parseLsRemote, type RemoteReferences } from './git-remote.js';

// What a clone source holds now, without fetching it: its branches and tags with their commits (annotated tags
// peeled), as `git ls-remote` tells them, in one bounded call. Reconciliation (issue 30 item 5) compares this with a
// package's mirror to see whether anything was pushed that no webhook announced.

const LIST_TIMEOUT_MS = 60_000;

/** Branches and tags of a local repository (a package's mirror, or the local folder's source), read in place. */
export async function listLocalReferences(repositoryDir: string): Promise<Map<string, string>> {
  const output = await runGit(
    [
      '-C',
      repositoryDir,
      'for-each-ref',
      '--format=%(objectname) %(*objectname) %(refname)',
      'refs/heads',
      'refs/tags',
    ],
    {
      // The operator put the local folder's repositories there: read them even when another user owns them.
      safeDirectories: [repositoryDir, path.join(repositoryDir, '.git')],
      timeoutMs: LIST_TIMEOUT_MS,
      maxOutputBytes: MAX_REFERENCES_BYTES,
    },
  );
  const refs = new Map<string, string>();
  for (const line of output.toString('utf8').split('\n')) {
    const [object, peeled, ref] = line.split(' ');
    if (!object || ref === undefined) continue;
    refs.set(ref, peeled || object);
  }
  return refs;
}

/** The source's branches and tags: in place for a local path, with ls-remote (bounded, with its credentials) for a URL. */
export async function listSourceReferences(source: CloneSource): Promise<Map<string, string>> {
  if (path.isAbsolute(source.source)) return listLocalReferences(source.source);
  let references: RemoteReferences;
  if (source.access) {
    references = await listRemoteReferences(source.source, source.access);
  } else if (source.auth) {
    // GitHub's way: the token as HTTP basic auth in a header scoped to the URL (as git-mirror.ts fetches).
    const encoded = Buffer.from(`${source.auth.username ?? 'x-access-token'}:${source.auth.token}`).toString('base64');
    const output = await runGit(['ls-remote', '--symref', '--', source.source], {
      hiddenConfig: [[`http.${new URL(source.source).href}.extraHeader`, `Authorization: Basic ${encoded}`]],
      secrets: [source.auth.token, encoded],
      timeoutMs: LIST_TIMEOUT_MS,
      maxOutputBytes: MAX_REFERENCES_BYTES,
    });
    references = parseLsRemote(output.toString('utf8'));
  } else {
    references = await listRemoteReferences(source.source, undefined);
  }
  return references.refs;
}

/** Whether two reference maps name the same branches and tags at the same commits. */
export function isSameReferences(a: Map<string, string>, b: Map<string, string>): boolean {
  if (a.size !== b.size) return false;
  for (const [ref, commit] of a) if (b.get(ref) !== commit) return false;
  return true;
}
