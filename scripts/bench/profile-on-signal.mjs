// Loaded into a server the bench profiles in its own process (`node --import`: the built server, the bare server),
// never by `npm start`: SIGUSR2 starts V8's sampling profiler, the next SIGUSR2 stops it. Each step leaves a file in
// BENCH_PROFILE_SIGNAL_DIR that the bench waits for (bench/profile.ts profileProcessWhile): `<pid>.started` once the
// profiler runs, `<pid>.cpuprofile` once the profile is written (renamed into place whole). Only the stretch between
// the signals is profiled, not the server's start-up (module loading, PGlite's initdb), which would hide the answers.
import { renameSync, writeFileSync } from 'node:fs';
import { Session } from 'node:inspector';
import path from 'node:path';

const folder = process.env.BENCH_PROFILE_SIGNAL_DIR;
/** A warm answer takes tens of microseconds: V8's default interval (1 ms) would see few of them. */
const SAMPLING_INTERVAL_MICROS = 100;

/** @type {Session | undefined} */
let session;

function start() {
  const started = new Session();
  started.connect();
  session = started;
  started.post('Profiler.enable', () =>
    started.post('Profiler.setSamplingInterval', { interval: SAMPLING_INTERVAL_MICROS }, () =>
      started.post('Profiler.start', () => writeFileSync(path.join(folder, `${process.pid}.started`), '')),
    ),
  );
}

function stop() {
  const running = session;
  session = undefined;
  running.post('Profiler.stop', (error, result) => {
    running.disconnect();
    const file = path.join(folder, `${process.pid}.cpuprofile`);
    const written = `${file}.part`;
    writeFileSync(written, error ? JSON.stringify({ error: error.message }) : JSON.stringify(result.profile));
    renameSync(written, file);
  });
}

if (folder) process.on('SIGUSR2', () => (session ? stop() : start()));
