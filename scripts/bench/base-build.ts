import { mkdir, mkdtemp, rm, symlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { execFileAsync } from './processes.js';

// Another commit's server, built as `npm start` runs it, for bench/door-ab.ts: checked out into a git worktree of its
// own (this checkout's files stay as they are), with this checkout's node_modules and web build linked into it, so
// that both builds load the same packages and only the server's code differs.

export type BaseBuild = {
  /** The commit, as git names it in full. */
  commit: string;
  /** The built server's main.js. */
  main: string;
  /** Removes the worktree and its build. */
  remove(): Promise<void>;
};

export async function buildServerAt(revision: string): Promise<BaseBuild> {
  const { stdout } = await execFileAsync('git', ['rev-parse', '--verify', `${revision}^{commit}`]);
  const commit = stdout.trim();
  const folder = await mkdtemp(path.join(tmpdir(), 'packgate-base-'));
  const tree = path.join(folder, 'tree');
  await execFileAsync('git', ['worktree', 'add', '--detach', tree, commit]);
  const remove = async () => {
    await execFileAsync('git', ['worktree', 'remove', '--force', tree]).catch(() => undefined);
    await rm(folder, { recursive: true, force: true });
    await execFileAsync('git', ['worktree', 'prune']).catch(() => undefined);
  };
  try {
    await symlink(path.resolve('node_modules'), path.join(tree, 'node_modules'));
    await mkdir(path.join(tree, 'dist'), { recursive: true });
    await symlink(path.resolve('dist/web'), path.join(tree, 'dist/web'));
    // The commit's own build script, into its own dist/server (built code finds its packages through the link above).
    await execFileAsync(process.execPath, [path.join(tree, 'scripts/build-server.mjs')], { cwd: tree });
  } catch (error) {
    await remove();
    throw error;
  }
  return { commit, main: path.join(tree, 'dist/server/main.js'), remove };
}
