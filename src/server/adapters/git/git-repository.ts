import { createHash } from 'node:crypto';
import { PassThrough, type Readable } from 'node:stream';
import { type GitCallOptions, GitError, runGit, spawnGit } from './git-command.js';

// Reading a mirror (or any local repository): references, files at a revision, zip archives.

export type GitReadOptions = Pick<GitCallOptions, 'timeoutMs' | 'safeDirectories'>;

export type GitReference = {
  kind: 'branch' | 'tag';
  /** Short name: `v1.0.0`, `main`, `feature/x`. */
  name: string;
  /** Full name: `refs/tags/v1.0.0`. */
  ref: string;
  /** The commit, annotated tags peeled. */
  commit: string;
  /** Committer date of the commit. */
  committedAt: Date;
  /** Author date of the commit (what Composer's own git driver reports as a release's time). */
  authoredAt: Date;
  /**
   * The tagger date of an annotated tag (the outermost tag object's own date); undefined for a lightweight tag, a
   * branch, or a tag object without a tagger. Set when the tag was made, so it can bound a publication time from below.
   */
  taggedAt?: Date;
};

const FIELD = '%00';
const REFERENCE_FORMAT = [
  '%(refname)',
  '%(objecttype)',
  '%(objectname)',
  '%(committerdate:unix)',
  '%(authordate:unix)',
  '%(*objecttype)',
  '%(*objectname)',
  '%(*committerdate:unix)',
  '%(*authordate:unix)',
  '%(taggerdate:unix)',
].join(FIELD);

/** Branches and tags with their commit and dates, in one `git for-each-ref` call. Tags of trees or blobs are left out. */
export async function listReferences(repositoryDir: string, options: GitReadOptions = {}): Promise<GitReference[]> {
  const output = await runGit(
    ['-C', repositoryDir, 'for-each-ref', `--format=${REFERENCE_FORMAT}`, 'refs/heads', 'refs/tags'],
    options,
  );
  const references: GitReference[] = [];
  const nestedTags: { ref: string; tagged: string | undefined }[] = [];
  for (const line of output.toString('utf8').split('\n')) {
    if (line === '') continue;
    const [
      ref = '',
      type,
      sha = '',
      committed,
      authored,
      peeledType,
      peeledSha = '',
      peeledCommitted,
      peeledAuthored,
      tagged,
    ] = line.split('\0');
    const kind = ref.startsWith('refs/tags/') ? 'tag' : 'branch';
    const name = ref.replace(/^refs\/(heads|tags)\//, '');
    if (type === 'commit') {
      references.push({
        kind,
        name,
        ref,
        commit: sha,
        committedAt: unixDate(committed),
        authoredAt: unixDate(authored),
      });
    } else if (type === 'tag' && peeledType === 'commit') {
      references.push({
        kind,
        name,
        ref,
        commit: peeledSha,
        committedAt: unixDate(peeledCommitted),
        authoredAt: unixDate(peeledAuthored),
        ...taggerDate(tagged),
      });
    } else if (type === 'tag' && peeledType === 'tag') {
      nestedTags.push({ ref, tagged });
    }
  }
  // for-each-ref peels one level only; a tag of a tag is rare enough to resolve one by one.
  for (const { ref, tagged } of nestedTags) {
    const reference = await resolveNestedTag(repositoryDir, ref, options);
    if (reference) references.push({ ...reference, ...taggerDate(tagged) });
  }
  return references;
}

async function resolveNestedTag(
  repositoryDir: string,
  ref: string,
  options: GitReadOptions,
): Promise<GitReference | undefined> {
  try {
    const output = await runGit(
      ['-C', repositoryDir, 'show', '--no-patch', '--no-notes', '--format=%H%x00%ct%x00%at', `${ref}^{commit}`, '--'],
      options,
    );
    const [commit = '', committed, authored] = output.toString('utf8').trim().split('\0');
    const name = ref.replace(/^refs\/tags\//, '');
    return { kind: 'tag', name, ref, commit, committedAt: unixDate(committed), authoredAt: unixDate(authored) };
  } catch (error) {
    if (error instanceof GitError && error.code !== 'TIMEOUT') return undefined;
    throw error;
  }
}

/** `{ taggedAt }` when the tag object has a tagger date, else nothing. */
function taggerDate(seconds: string | undefined): { taggedAt?: Date } {
  return seconds === undefined || !/^\d+$/.test(seconds) ? {} : { taggedAt: unixDate(seconds) };
}

function unixDate(seconds: string | undefined): Date {
  return new Date(Number(seconds) * 1000);
}

function assertRevision(revision: string): void {
  if (revision === '' || revision.startsWith('-') || /[\s\0:]/.test(revision)) {
    throw new GitError('INVALID_ARGUMENT', 'cat-file', `not a revision: ${JSON.stringify(revision.slice(0, 80))}`);
  }
}

/** The file's text at a revision (commit, tag, branch), or undefined when it has no such file. */
export async function readFileAt(
  repositoryDir: string,
  revision: string,
  filePath: string,
  options: GitReadOptions = {},
): Promise<string | undefined> {
  return (await readFilesAt(repositoryDir, [revision], filePath, options)).get(revision);
}

/**
 * One file (e.g. composer.json) at many revisions through a single `git cat-file --batch` process, so a
 * refresh over hundreds of tags costs one process. Missing files, and paths naming a directory, map to undefined.
 */
export async function readFilesAt(
  repositoryDir: string,
  revisions: string[],
  filePath: string,
  options: GitReadOptions = {},
): Promise<Map<string, string | undefined>> {
  const files = new Map<string, string | undefined>();
  if (revisions.length === 0) return files;
  if (filePath === '' || /[\n\0]/.test(filePath)) {
    throw new GitError('INVALID_ARGUMENT', 'cat-file', 'not a file path');
  }
  for (const revision of revisions) assertRevision(revision);
  const input = revisions.map((revision) => `${revision}:${filePath.replace(/^\/+/, '')}\n`).join('');
  const output = await runGit(['-C', repositoryDir, 'cat-file', '--batch', '--buffer'], { ...options, input });

  let position = 0;
  for (const revision of revisions) {
    const lineEnd = output.indexOf(0x0a, position);
    if (lineEnd === -1) throw new GitError('FAILED', 'cat-file', 'output ended early');
    const header = output.subarray(position, lineEnd).toString('utf8');
    position = lineEnd + 1;
    const match = /^([0-9a-f]{40,64}) ([a-z]+) (\d+)$/.exec(header);
    if (!match) {
      // `<input> missing` or `<input> ambiguous`: nothing follows the header.
      files.set(revision, undefined);
      continue;
    }
    const size = Number(match[3]);
    const content = output.subarray(position, position + size);
    position += size + 1;
    files.set(revision, match[2] === 'blob' ? content.toString('utf8') : undefined);
  }
  return files;
}

export type ZipStream = {
  /** The zip's bytes; errors if git fails part way. */
  stream: Readable;
  /** SHA-1 (hex) of every byte streamed, settled when the stream ends. */
  sha1: Promise<string>;
  size: Promise<number>;
};

export type ZipOptions = GitReadOptions & {
  /** A folder every entry is placed under, e.g. `acme-widget-1a2b3c/`. */
  prefix?: string;
};

const ARCHIVE_TIMEOUT_MS = 5 * 60_000;

function archiveArguments(repositoryDir: string, commit: string, options: ZipOptions): string[] {
  assertRevision(commit);
  const prefix = options.prefix;
  if (
    prefix !== undefined &&
    (!/^[A-Za-z0-9._@+-]+(\/[A-Za-z0-9._@+-]+)*\/$/.test(prefix) || /(^|\/)\.\.?\//.test(prefix))
  ) {
    throw new GitError('INVALID_ARGUMENT', 'archive', 'prefix must be a relative folder ending in /');
  }
  // Attributes come from the archived tree itself, so export-ignore and export-subst apply as committed.
  return ['-C', repositoryDir, 'archive', '--format=zip', ...(prefix ? [`--prefix=${prefix}`] : []), commit];
}

/** `git archive --format=zip` of a commit as a stream, hashed with SHA-1 on the way through. */
export function streamZipArchive(repositoryDir: string, commit: string, options: ZipOptions = {}): ZipStream {
  const args = archiveArguments(repositoryDir, commit, options);
  const git = spawnGit(args, { ...options, timeoutMs: options.timeoutMs ?? ARCHIVE_TIMEOUT_MS });
  const hash = createHash('sha1');
  let size = 0;
  const output = new PassThrough();
  let settle!: { resolve: (value: { sha1: string; size: number }) => void; reject: (error: unknown) => void };
  const result = new Promise<{ sha1: string; size: number }>((resolve, reject) => {
    settle = { resolve, reject };
  });
  result.catch(() => {});

  git.stdout.on('data', (chunk: Buffer) => {
    hash.update(chunk);
    size += chunk.length;
    if (!output.write(chunk)) {
      git.stdout.pause();
      output.once('drain', () => git.stdout.resume());
    }
  });
  // The stream ends only once git has exited with success, so a failure part way is never a short zip.
  git.done.then(
    () => {
      settle.resolve({ sha1: hash.digest('hex'), size });
      output.end();
    },
    (error: unknown) => {
      settle.reject(error);
      output.destroy(error as Error);
    },
  );
  output.on('close', () => {
    git.kill();
  });

  const sha1 = result.then((value) => value.sha1);
  const total = result.then((value) => value.size);
  sha1.catch(() => {});
  total.catch(() => {});
  return { stream: output, sha1, size: total };
}

/** The whole zip in memory with its SHA-1: package dists are small, and S3 wants a known length. */
export async function archiveZip(
  repositoryDir: string,
  commit: string,
  options: ZipOptions = {},
): Promise<{ zip: Buffer; sha1: string; size: number }> {
  const { stream, sha1, size } = streamZipArchive(repositoryDir, commit, options);
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return { zip: Buffer.concat(chunks), sha1: await sha1, size: await size };
}
