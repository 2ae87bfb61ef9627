/**
 * The app for the daily-log benchmark (bench/logs.ts): what src/main.ts runs — the same startService,
 * configuration from the environment, roles, database, gazetteer and shutdown — plus one thing the
 * benchmark needs and the API cannot do: insert the generated log (records up to 194 days old, see
 * logs-seed.ts) into the app's own database. An in-memory PGlite lives inside this process, so the
 * rows can only get in from here.
 *
 * The harness sends `POST /seed` with the seed file's path over a Unix socket (BENCH_CONTROL_SOCKET,
 * never a TCP port); the rows are inserted as the schema owner in one transaction, the tables analysed,
 * and on PGlite the WAL checkpointed. Nothing else differs from `node dist/main.js`: requests are
 * served by the same Fastify app.
 *
 * With BENCH_CPU_PROF the harness also sends `POST /profile/start` before the measured runs and
 * `POST /profile/stop` (body: the file to write) after them: a V8 CPU profile of the measured requests
 * only, without start-up, seeding and warm-up (the inspector's Profiler, sampling every 100 µs).
 */
import fs from 'node:fs';
import http from 'node:http';
import { Session } from 'node:inspector/promises';
import { configFromEnvironment, startService } from '../../src/server.js';
import { ANALYZE_LOGS_TABLES, insertLogsRows, type LogsSeed } from './logs-seed.js';

process.on('unhandledRejection', (reason: unknown) => {
  console.error(JSON.stringify({ level: 50, time: Date.now(), msg: 'unhandled promise rejection', err: reason instanceof Error ? reason.message : String(reason) }));
});

const socket = process.env.BENCH_CONTROL_SOCKET;
if (!socket) throw new Error('BENCH_CONTROL_SOCKET must be set');

const app = await startService(configFromEnvironment());
if (app === undefined) process.exit(0);
const { db } = app.deps;

let profiler: Session | undefined;

const control = http.createServer((req, res) => {
  const answer = (status: number, body: unknown) => {
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(JSON.stringify(body));
  };
  const failed = (err: unknown) => answer(500, { error: err instanceof Error ? err.message : String(err) });
  if (req.method === 'POST' && req.url === '/profile/start') {
    void (async () => {
      profiler = new Session();
      profiler.connect();
      await profiler.post('Profiler.enable');
      await profiler.post('Profiler.setSamplingInterval', { interval: 100 });
      await profiler.post('Profiler.start');
    })().then(() => answer(200, { started: true }), failed);
    return;
  }
  let file = '';
  req.setEncoding('utf8');
  req.on('data', (chunk: string) => (file += chunk));
  if (req.method === 'POST' && req.url === '/profile/stop') {
    req.on('end', () => {
      void (async () => {
        if (!profiler) throw new Error('no profile started');
        const { profile } = await profiler.post('Profiler.stop');
        profiler.disconnect();
        profiler = undefined;
        fs.writeFileSync(file.trim(), JSON.stringify(profile));
      })().then(() => answer(200, { written: file.trim() }), failed);
    });
    return;
  }
  if (req.method !== 'POST' || req.url !== '/seed') return answer(404, { error: 'POST /seed, /profile/start or /profile/stop' });
  req.on('end', () => {
    const started = Date.now();
    void (async () => {
      const seed = JSON.parse(fs.readFileSync(file.trim(), 'utf8')) as LogsSeed;
      const counts = await db.system((tx) => insertLogsRows(tx, seed.rows));
      await db.exec(ANALYZE_LOGS_TABLES);
      if (db.kind === 'pglite') await db.exec('CHECKPOINT');
      return counts;
    })().then(
      (counts) => answer(200, { counts, seconds: (Date.now() - started) / 1000 }),
      failed,
    );
  });
});
fs.rmSync(socket, { force: true });
control.listen(socket);
control.unref();
