import { request as httpRequest } from 'node:http';
import type { Metrics } from '../../src/server/observability/metrics.js';
import { doorCountingSwitch } from './door-counting.js';
import type { StaticServer } from './processes.js';
import {
  bareNodeCpuMicros,
  format,
  generatorWarning,
  type LoadTarget,
  latencyP99,
  line,
  type Measured,
  measureInTurns,
  ownCpuMicros,
  printAgainstBaselines,
  ratio,
  ratioInTurns,
  ratioSpread,
  requestRate,
  type TurnOptions,
} from './turns.js';

// (a) to (d) of npm run bench, and of bench/composer-doors.ts alone: the warm Composer door against nginx and a bare
// node:http server answering the same bytes, in turns.
//   (a) authenticated p2 metadata, with the door's /metrics counting on and off (issue 35: counting costs nothing
//       measurable), against nginx and the bare Node.js server;
//   (b) packages.json, the same way;
//   (c) a p2 304 (If-Modified-Since) against our own 200, beside the bare server's own 304 against its 200 (both with
//       Packgate's headers), and (d) an unlicensed package's 404: its p99 against the 200's p99;
//   (e) a token nobody holds (a guess, a deleted token): its 401 against our warm packages.json, on request (figure
//       `401`): what a flood of bad credentials costs the server.

export type MetadataDoors = {
  /**
   * The app's metrics when it runs in this process: the door is then also measured with its /metrics counting off
   * (bench/door-counting.ts). A server in a process of its own is measured as it runs, counting on.
   */
  metrics?: Metrics;
  /** Packgate's base URL (http://127.0.0.1:port). */
  ours: string;
  /** The CPU time so far, in µs, of the process Packgate runs in: this one's (ownCpuMicros) unless given. */
  oursCpuMicros?: () => number | Promise<number>;
  /** Host and Authorization of the seeded holder, on the seller's repository host. */
  auth: Record<string, string>;
  metadataPath: string;
  /** The p2 file's bytes and Last-Modified as Packgate answered them (nginx and bare Node.js serve the same). */
  p2: { bytes: number; lastModified: string };
  /** Where nginx and the bare Node.js server answer packages.json's bytes. */
  packagesJsonStaticPath: string;
  nginx: StaticServer;
  bareNode: StaticServer;
  /**
   * Whether the bare server also answers `/as-answered<path>` with Packgate's own headers (startBareNode's
   * answerHeaders): then (a) and (b) set the door beside the same answer from a bare server, which tells the door's own
   * cost from its headers' (Node.js's writeHead checks and writes each header: a cost per header, not per door).
   */
  asAnswered?: boolean;
  /**
   * The bare server's answers in Packgate's own process (startBareNodeHere when Packgate runs in this one, the built
   * server's bench/bare-in-server.mjs): its `/as-answered` paths are then measured too, the ceiling of that process for
   * the same answer.
   */
  bareInProcess?: StaticServer;
  /**
   * A second bare server, the same script and bytes in a process of its own, measured in (a) and (b)'s turns beside
   * the first: two identical servers' ratio is what the machine and the generator alone move a ratio by in that run,
   * the resolution every other ratio of the run is read against.
   */
  bareTwin?: StaticServer;
  turns: TurnOptions;
  /** The figures to take: p2, packages, 304, 404 (by default), 401. */
  only?: Set<string>;
};

/** The switch is checked before it is used: five answers with counting off add nothing, five with it on add five. */
async function checkCountingSwitch(doors: MetadataDoors, counting: ReturnType<typeof doorCountingSwitch>) {
  const ask = () => fetchThroughHost(`${doors.ours}${doors.metadataPath}`, doors.auth);
  const before = await counting.counted();
  counting.off();
  try {
    for (let index = 0; index < 5; index++) await ask();
  } finally {
    counting.on();
  }
  const whileOff = await counting.counted();
  for (let index = 0; index < 5; index++) await ask();
  const whileOn = await counting.counted();
  if (whileOff !== before || whileOn !== whileOff + 5) {
    throw new Error(`the bench's counting switch does not work: ${before} → ${whileOff} (off) → ${whileOn} (on)`);
  }
}

/** fetch() may not set Host, which names the repository: node:http instead. */
async function fetchThroughHost(url: string, headers: Record<string, string>): Promise<number> {
  return new Promise((resolve, reject) => {
    const outgoing = httpRequest(url, { headers }, (response) => {
      response.resume();
      response.on('end', () => resolve(response.statusCode ?? 0));
    });
    outgoing.on('error', reject);
    outgoing.end();
  });
}

export async function measureMetadataDoors(doors: MetadataDoors): Promise<void> {
  const only = doors.only ?? new Set(['p2', 'packages', '304', '404']);
  const counting = doors.metrics ? doorCountingSwitch(doors.metrics) : undefined;
  if (counting) await checkCountingSwitch(doors, counting);
  const ours = (urlPath: string, headers: Record<string, string>, expectStatus: number): LoadTarget => ({
    url: `${doors.ours}${urlPath}`,
    headers,
    expectStatus,
    serverCpuMicros: doors.oursCpuMicros ?? ownCpuMicros,
  });
  const fromStatic = (server: StaticServer, urlPath: string): LoadTarget => ({
    url: `${server.url}${urlPath}`,
    headers: {},
    expectStatus: 200,
    ...(server === doors.bareNode || server === doors.bareTwin
      ? { serverCpuMicros: () => bareNodeCpuMicros(server) }
      : {}),
  });
  /** Ours (and uncounted, in this process), nginx's and bare Node.js's (and its answer with our headers), in turns. */
  const againstBaselines = async (urlPath: string, staticPath: string) => {
    const asAnswered = doors.asAnswered ? fromStatic(doors.bareNode, `/as-answered${staticPath}`) : undefined;
    const inProcess = doors.bareInProcess
      ? {
          ...fromStatic(doors.bareInProcess, `/as-answered${staticPath}`),
          serverCpuMicros: doors.oursCpuMicros ?? ownCpuMicros,
        }
      : undefined;
    const uncounted = counting
      ? { ...ours(urlPath, doors.auth, 200), before: counting.off, after: counting.on }
      : undefined;
    const always = [
      ours(urlPath, doors.auth, 200),
      fromStatic(doors.nginx, staticPath),
      fromStatic(doors.bareNode, staticPath),
    ];
    const twin = doors.bareTwin ? fromStatic(doors.bareTwin, staticPath) : undefined;
    const optional = [asAnswered, inProcess, uncounted, twin];
    const present = optional.filter((target) => target !== undefined);
    const measured = await measureInTurns([...always, ...present], doors.turns);
    const [counted, nginx, bareNode] = measured;
    const optionalMeasured = new Map(present.map((target, index) => [target, measured[always.length + index]!]));
    const [bareAsAnswered, bareHere, notCounted, bareTwin] = optional.map(
      (target) => target && optionalMeasured.get(target),
    );
    printAgainstBaselines(counted!, nginx!, bareNode!);
    if (bareTwin) printTwin(bareNode!, bareTwin);
    if (bareAsAnswered) {
      console.log(line("bare node:http, with Packgate's headers:", bareAsAnswered));
      console.log(
        `    Packgate / bare Node.js with the same headers: ${ratio(ratioInTurns(counted!, bareAsAnswered, requestRate))} req/s, CPU ${counted!.cpuMicrosPerRequest.toFixed(1)} / ${bareAsAnswered.cpuMicrosPerRequest.toFixed(1)} µs/request (the door's own cost); those headers / bare Node.js's three: ${ratio(ratioInTurns(bareAsAnswered, bareNode!, requestRate))}`,
      );
    }
    if (bareHere) {
      console.log(line("bare node:http in Packgate's process, its headers:", bareHere));
      console.log(
        `    Packgate / bare Node.js in the same process: ${ratio(ratioInTurns(counted!, bareHere, requestRate))} req/s (the door's own cost there); bare Node.js in Packgate's process / in a process of its own, both with Packgate's headers: ${bareAsAnswered ? ratio(ratioInTurns(bareHere, bareAsAnswered, requestRate)) : 'n/a'} (what sharing the process costs)`,
      );
    }
    if (notCounted) {
      console.log(line('Packgate, its /metrics counting off:', notCounted));
      console.log(
        `    counting on / off: ${ratio(ratioInTurns(counted!, notCounted, requestRate))} req/s, CPU ${counted!.cpuMicrosPerRequest.toFixed(1)} / ${notCounted.cpuMicrosPerRequest.toFixed(1)} µs/request`,
      );
    }
    return { counted: counted!, nginx: nginx!, bareNode: bareNode! };
  };

  let p2: Awaited<ReturnType<typeof againstBaselines>> | undefined;
  if (only.has('p2')) {
    console.log(`\n(a) GET ${doors.metadataPath} (${format(doors.p2.bytes)} bytes)`);
    p2 = await againstBaselines(doors.metadataPath, doors.metadataPath);
  }
  if (only.has('packages')) {
    console.log('\n(b) GET /packages.json');
    await againstBaselines('/packages.json', doors.packagesJsonStaticPath);
  }
  if (only.has('401')) await measureUnknownToken(doors, ours);
  if (!only.has('304') && !only.has('404')) return;
  console.log(
    `\n(c) GET ${doors.metadataPath} with If-Modified-Since: 304, and (d) GET /p2/bench/no-such-package.json (an unlicensed name): 404, each against our own 200`,
  );
  // With the bare server's answers in Packgate's headers: its own 304 against its 200, in the same turns, the ceiling
  // of (c) in one Node.js process (a 304 still costs a write to the socket, most of a small answer's cost).
  const bareAnswers = doors.asAnswered
    ? [
        fromStatic(doors.bareNode, `/as-answered${doors.metadataPath}`),
        {
          ...fromStatic(doors.bareNode, `/as-answered${doors.metadataPath}`),
          headers: { 'if-modified-since': doors.p2.lastModified },
          expectStatus: 304,
        },
      ]
    : [];
  const [p2Again, notModified, unknown, bare200, bare304] = await measureInTurns(
    [
      ours(doors.metadataPath, doors.auth, 200),
      ours(doors.metadataPath, { ...doors.auth, 'if-modified-since': doors.p2.lastModified }, 304),
      ours('/p2/bench/no-such-package.json', doors.auth, 404),
      ...bareAnswers,
    ],
    doors.turns,
  );
  if (!p2Again || !notModified || !unknown) throw new Error('(c) and (d) measured nothing');
  console.log(line('Packgate 200:', p2Again));
  console.log(line('Packgate 304:', notModified));
  console.log(line('Packgate 404:', unknown));
  if (bare200 && bare304) {
    console.log(line("bare node:http 200, Packgate's headers:", bare200));
    console.log(line("bare node:http 304, Packgate's headers:", bare304));
  }
  if (p2) {
    for (const [label, measured] of [
      ['200', p2Again],
      ['304', notModified],
      ['404', unknown],
    ] as const) {
      console.log(
        `    ${label} / nginx's p2 in (a): ${ratio(measured.requestsPerSecond / p2.nginx.requestsPerSecond)}, / bare Node.js's: ${ratio(measured.requestsPerSecond / p2.bareNode.requestsPerSecond)}${generatorWarning(measured, p2.nginx)}`,
      );
    }
  }
  const bareCeiling =
    bare200 && bare304 ? `; bare Node.js's own 304 / 200: ${ratio(ratioInTurns(bare304, bare200, requestRate))}` : '';
  console.log(
    `    (c) ratio 304 / 200: ${ratio(ratioInTurns(notModified, p2Again, requestRate))} (${ratioSpread(notModified, p2Again, requestRate)})  (goal ≥ 1.2)${bareCeiling}`,
  );
  printWhatA304Saves(p2Again, notModified, bare200, bare304);
  console.log(
    `    (d) ratio 404 p99 / 200 p99: ${ratio(ratioInTurns(unknown, p2Again, latencyP99))} (${ratioSpread(unknown, p2Again, latencyP99)})  (goal ≤ 1.1)`,
  );
}

/** The bare server against its twin in the same turns: how far two identical servers' ratio moves in this run. */
function printTwin(bareNode: Measured, twin: Measured): void {
  console.log(line('bare node:http, its twin (another process):', twin));
  console.log(
    `    bare Node.js / its twin: ${ratio(ratioInTurns(bareNode, twin, requestRate))} (${ratioSpread(bareNode, twin, requestRate)}), CPU ${bareNode.cpuMicrosPerRequest.toFixed(1)} / ${twin.cpuMicrosPerRequest.toFixed(1)} µs/request: the same server twice, what the machine and the generator alone move a ratio by in this run`,
  );
}

/**
 * The server's CPU per 200 against per 304, ours and the bare server's: what not sending the p2 file's bytes saves
 * the server. Where a system call costs most of an answer (a kernel that isolates page tables without PCIDs), a 304
 * saves little of it, and its req/s over the 200's is then mostly the generator's saving (fewer bytes to read).
 */
function printWhatA304Saves(ours200: Measured, ours304: Measured, bare200?: Measured, bare304?: Measured): void {
  const saving = (ok: Measured, notModified: Measured) =>
    ok.cpuMicrosPerRequest > 0 && notModified.cpuMicrosPerRequest > 0
      ? ratio(ok.cpuMicrosPerRequest / notModified.cpuMicrosPerRequest)
      : 'n/a';
  const bare = bare200 && bare304 ? `, bare Node.js's: ${saving(bare200, bare304)}` : '';
  console.log(`    CPU per 200 / per 304 (what a 304 saves the server): ours ${saving(ours200, ours304)}${bare}`);
}

/** A well-formed token that no holder has: the same length and prefix as the seeded holder's, other characters. */
function unknownTokenLike(authorization: string): string {
  const token = authorization.slice('Bearer '.length);
  const prefix = token.slice(0, token.indexOf('_') + 1);
  return `Bearer ${prefix}${'x'.repeat(token.length - prefix.length)}`;
}

/**
 * (e): packages.json asked with a token nobody holds, against the warm packages.json in turns. Not a door answer (the
 * routes refuse it, after one lookup in the database), so no goal: the figure says what each bad credential costs.
 */
async function measureUnknownToken(
  doors: MetadataDoors,
  ours: (urlPath: string, headers: Record<string, string>, expectStatus: number) => LoadTarget,
): Promise<void> {
  console.log('\n(e) GET /packages.json with a token nobody holds: 401, against the warm 200');
  const [warm, refused] = (await measureInTurns(
    [
      ours('/packages.json', doors.auth, 200),
      ours('/packages.json', { ...doors.auth, authorization: unknownTokenLike(doors.auth.authorization ?? '') }, 401),
    ],
    doors.turns,
  )) as [Measured, Measured];
  console.log(line('Packgate 200 (warm):', warm));
  console.log(line('Packgate 401 (token nobody holds):', refused));
  console.log(
    `    CPU per 401 / per warm 200: ${ratio(refused.cpuMicrosPerRequest / warm.cpuMicrosPerRequest)}; 401s one core answers: ${format(1_000_000 / refused.cpuMicrosPerRequest)} a second`,
  );
}
