// How many distinct memory pages one warm `p2` answer touches (bench/touched-pages.ts), and what a page costs on this
// machine: on a kernel that isolates page tables without PCIDs every system call empties the TLB, so each page an
// answer touches is found again by a page walk, and a server that touches more pages per answer pays for each.
//   npx tsx scripts/bench/door-pages.ts
// Counted, in alternating rounds (BENCH_PAGE_ROUNDS, 11; medians), for the bare server in a process of its own with
// its three headers and with Packgate's, that bare handler inside the built server (bench/bare-in-server.mjs) and
// Packgate's door; then the CPU per answer of a bare server that reads one byte of 0 and of BENCH_TOUCHED_PAGES (600)
// more pages per answer (bench/page-toucher.mjs), in wrk turns, and from it what the pages Packgate touches beyond
// the bare server's cost. Runs on PGlite, and on PostgreSQL when BENCH_DATABASE_URL (or TEST_DATABASE_URL) is set
// (BENCH_SKIP_PGLITE=1 skips PGlite). About two minutes a database.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { type BenchDatabase, measureOnEachBenchDatabase } from './bench-app.js';
import { type DoorServers, startDoorServers } from './door-servers.js';
import { median } from './percentile.js';
import { type BareNodeServer, runLoad, startNodeServer } from './processes.js';
import { pagesOfOneAnswer, totalPages } from './touched-pages.js';
import { bareNodeCpuMicros, measureInTurns } from './turns.js';

const ROUNDS = Number(process.env.BENCH_PAGE_ROUNDS ?? 11);
const TOUCHED_PAGES = Number(process.env.BENCH_TOUCHED_PAGES ?? 600);

type Target = { label: string; pid: number; port: number; request: string };

function rawGet(urlPath: string, headers: Record<string, string>): string {
  const lines = Object.entries({ host: '127.0.0.1', ...headers }).map(([name, value]) => `${name}: ${value}\r\n`);
  return `GET ${urlPath} HTTP/1.1\r\n${lines.join('')}\r\n`;
}

const startPageToucher = (pages: number): Promise<BareNodeServer> =>
  startNodeServer('scripts/bench/page-toucher.mjs', 'the page toucher', { PAGE_TOUCHER_PAGES: String(pages) });

/** CPU per answer of a bare server touching no extra page and one touching TOUCHED_PAGES, in wrk turns. */
async function costOfAPage(): Promise<{ nanoseconds: number; without: number; with: number }> {
  const servers = [await startPageToucher(0), await startPageToucher(TOUCHED_PAGES)];
  try {
    const [without, withPages] = await measureInTurns(
      servers.map((server) => ({
        url: `${server.url}/`,
        headers: {},
        expectStatus: 200,
        serverCpuMicros: () => bareNodeCpuMicros(server),
      })),
      { seconds: 4, runs: 6, connections: 50 },
    );
    const cpu = { without: without!.cpuMicrosPerRequest, with: withPages!.cpuMicrosPerRequest };
    return { nanoseconds: ((cpu.with - cpu.without) * 1000) / TOUCHED_PAGES, ...cpu };
  } finally {
    for (const server of servers) await server.stop();
  }
}

async function measure(database: BenchDatabase): Promise<void> {
  const folder = await mkdtemp(path.join(tmpdir(), 'packgate-pages-'));
  console.log(`\n== ${database.label}: pages one warm p2 answer touches (medians of ${ROUNDS} rounds)`);
  let servers: DoorServers | undefined;
  try {
    servers = await startDoorServers(database, folder, 'packgate-pages-');
    const { built, bare, bareInPort, host, asAnswered } = servers;
    const { token, metadataPath } = built.seeded;
    const pid = built.server.child.pid!;
    const port = built.server.port;
    const targets: Target[] = [
      { label: 'bare server', pid: bare.pid, port: bare.port, request: rawGet(metadataPath, {}) },
      { label: "bare server, Packgate's headers", pid: bare.pid, port: bare.port, request: rawGet(asAnswered, {}) },
      { label: "bare handler in Packgate's process", pid, port: bareInPort, request: rawGet(asAnswered, {}) },
      {
        label: "Packgate's door",
        pid,
        port,
        request: rawGet(metadataPath, { host, authorization: `Bearer ${token}` }),
      },
    ];
    // Every answer's code compiled and warm first, under load as in the door's figures.
    const loads: Array<[string, Record<string, string>]> = [
      [`${bare.url}${metadataPath}`, {}],
      [`${bare.url}${asAnswered}`, {}],
      [`http://127.0.0.1:${bareInPort}${asAnswered}`, {}],
      [`http://127.0.0.1:${port}${metadataPath}`, { host, authorization: `Bearer ${token}` }],
    ];
    for (const [url, headers] of loads) await runLoad({ url, headers, connections: 50, durationSeconds: 3 });
    const counted = new Map<Target, Array<Map<string, number>>>(targets.map((target) => [target, []]));
    for (let round = 0; round < ROUNDS; round++) {
      for (const target of round % 2 === 0 ? targets : [...targets].reverse()) {
        counted.get(target)!.push(await pagesOfOneAnswer(target.pid, target.port, target.request));
      }
    }
    const medianPages = (target: Target) => median(counted.get(target)!.map(totalPages));
    for (const target of targets) {
      const rounds = counted.get(target)!;
      const parts = [...new Set(rounds.flatMap((round) => [...round.keys()]))]
        .map((part) => [part, median(rounds.map((round) => round.get(part) ?? 0))] as const)
        .filter(([, pages]) => pages >= 5)
        .sort((a, b) => b[1] - a[1]);
      const spread = rounds.map(totalPages);
      console.log(
        `  ${target.label.padEnd(36)} ${String(medianPages(target)).padStart(5)} pages (rounds ${Math.min(...spread)} to ${Math.max(...spread)}): ` +
          parts.map(([part, pages]) => `${part} ${pages}`).join(', '),
      );
    }
    const beyond = medianPages(targets[3]!) - medianPages(targets[1]!);
    const cost = await costOfAPage();
    console.log(
      `  a page more per answer: ${cost.nanoseconds.toFixed(1)} ns of CPU (a bare server touching ${TOUCHED_PAGES} ` +
        `more pages: ${cost.with.toFixed(1)} against ${cost.without.toFixed(1)} µs per answer, wrk turns)`,
    );
    console.log(
      `  Packgate's door touches ${beyond} pages more than the bare server with the same headers: about ` +
        `${((beyond * cost.nanoseconds) / 1000).toFixed(1)} µs per answer at that cost`,
    );
  } finally {
    await servers?.stop();
    await rm(folder, { recursive: true, force: true });
  }
}

await measureOnEachBenchDatabase('packgate_pages', measure);
process.exit(0);
