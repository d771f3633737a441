import { startGitHttpServer } from '../../test/support/git-http-server.js';

// The sync bench's git server in a process of its own (forked by sync-growth.ts): it starts `git http-backend`
// for every request, and in the bench's process those starts would be counted against the server under test.
// Arguments: the repositories' folder, the basic-auth user and password. It reports its URL over IPC and ends
// when its parent does.

const [rootDir, username, password] = process.argv.slice(2);
if (!rootDir || !username || !password) throw new Error('usage: git-server-process.ts <repos> <user> <password>');
const server = await startGitHttpServer(rootDir, { credentials: { username, password } });
process.send!({ url: server.url });
process.on('disconnect', () => {
  void server.close().finally(() => process.exit(0));
});
