import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';

// An S3-compatible server on loopback: s3rver, which speaks the S3 REST API in path style with signed requests,
// multipart uploads, ListObjectsV2 pages and DeleteObjects, storing objects in a temporary folder of its own. It
// runs in a child process: its ListObjectsV2 continuation tokens use DES, which OpenSSL 3 keeps in its legacy
// provider (node --openssl-legacy-provider), a flag that must not reach the tests' own process. (The maintained
// fork @20minutes/s3rver 4.x rejects the AWS SDK's signatures on listings and multipart uploads, and its 5.x and
// the other emulators on npm need Node 22 or later.)

export type FakeS3 = {
  /** `http://127.0.0.1:{port}`, for S3_ENDPOINT (path style: S3_FORCE_PATH_STYLE=true). */
  endpoint: string;
  bucket: string;
  region: string;
  /** The credentials s3rver checks signatures against. */
  accessKeyId: string;
  secretAccessKey: string;
  /** The settings that point a Packgate process at this bucket. */
  env: Record<string, string>;
  close(): Promise<void>;
};

const STARTUP_BOUND_MS = 30_000;

const serverScript = `
const S3rver = require(process.env.S3RVER_MODULE);
const server = new S3rver({
  address: '127.0.0.1',
  port: 0,
  silent: true,
  directory: process.env.S3RVER_DIRECTORY,
  vhostBuckets: false,
  configureBuckets: [{ name: process.env.S3RVER_BUCKET, configs: [] }],
});
server.run().then(
  (address) => process.stdout.write('listening ' + address.port + '\\n'),
  (error) => { console.error(error); process.exit(1); },
);
process.stdin.on('end', () => process.exit(0)); // the parent is gone: stop
process.stdin.resume();
`;

export async function startFakeS3(options: { bucket?: string } = {}): Promise<FakeS3> {
  const bucket = options.bucket ?? 'packgate-test';
  const directory = await mkdtemp(path.join(tmpdir(), 'packgate-s3rver-'));
  const child = spawn(process.execPath, ['--openssl-legacy-provider', '-e', serverScript], {
    env: {
      PATH: process.env.PATH,
      S3RVER_MODULE: createRequire(import.meta.url).resolve('s3rver'),
      S3RVER_DIRECTORY: directory,
      S3RVER_BUCKET: bucket,
    },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let output = '';
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const port = await new Promise<number>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`s3rver did not start in ${STARTUP_BOUND_MS} ms:\n${output}`)),
      STARTUP_BOUND_MS,
    );
    const onData = (chunk: Buffer) => {
      output += chunk.toString('utf8');
      const match = /listening (\d+)/.exec(output);
      if (match) {
        clearTimeout(timer);
        resolve(Number(match[1]));
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    void exited.then(() => {
      clearTimeout(timer);
      reject(new Error(`s3rver exited before listening:\n${output}`));
    });
  });
  const endpoint = `http://127.0.0.1:${port}`;
  const credentials = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' };
  return {
    endpoint,
    bucket,
    region: 'us-east-1',
    ...credentials,
    env: {
      S3_BUCKET: bucket,
      S3_REGION: 'us-east-1',
      S3_ENDPOINT: endpoint,
      S3_ACCESS_KEY_ID: credentials.accessKeyId,
      S3_SECRET_ACCESS_KEY: credentials.secretAccessKey,
      S3_FORCE_PATH_STYLE: 'true',
    },
    async close() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      await exited;
      await rm(directory, { recursive: true, force: true });
    },
  };
}
