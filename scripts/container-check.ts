/**
 * The container image, built and run as an operator would (CI runs it): `podman build` of the Dockerfile
 * (on the local stand-in for the Node base image: no registry is reachable here), then, against this
 * machine's PostgreSQL and Redis (host network):
 *   - the migrate role once (`… migrate`), which applies the migrations and exits 0;
 *   - the image with PROCESS_ROLES=api,worker: liveness, readiness, a registration, the administrator's
 *     approval, a login, an API key, a planned and activated route, all through its HTTP API;
 *   - `podman stop` (SIGTERM): it exits 0 by itself, within the bound.
 * Prints the image's size.
 *
 *   DATABASE_URL=postgres://… REDIS_URL=redis://… npx tsx scripts/container-check.ts [base image]
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';
import { ADMIN, adminApi, provisionTenant } from '../soak/lib/fleet.js';
import { freePort } from '../soak/lib/infra.js';

const ROOT = path.resolve(import.meta.dirname, '..');
const IMAGE = process.env.IMAGE ?? 'localhost/fleet-hos:check';
const DATABASE_URL = process.env.DATABASE_URL ?? process.env.TEST_DATABASE_URL;
const REDIS_URL = process.env.REDIS_URL ?? process.env.TEST_REDIS_URL;

const podman = (args: string[], opts: { input?: string } = {}) => execFileSync('podman', args, { encoding: 'utf8', stdio: ['pipe', 'pipe', 'pipe'], ...opts }).trim();
const step = (msg: string) => console.log(`container-check: ${msg}`);

async function main(): Promise<void> {
  if (!DATABASE_URL || !REDIS_URL) throw new Error('set DATABASE_URL and REDIS_URL (or TEST_DATABASE_URL and TEST_REDIS_URL)');
  const base = process.argv[2] ?? 'node:24-bookworm-slim';
  const started = Date.now();
  const build = spawnSync('podman', ['build', '--format', 'docker', '--network', 'host', '--build-arg', `NODE_IMAGE=${base}`, '-t', IMAGE, ROOT], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  if (build.status !== 0) throw new Error(`podman build failed:\n${(build.stdout + build.stderr).slice(-4000)}`);
  const bytes = Number(podman(['image', 'inspect', IMAGE, '--format', '{{.Size}}']));
  const baseBytes = Number(podman(['image', 'inspect', base, '--format', '{{.Size}}']));
  step(`built ${IMAGE} in ${((Date.now() - started) / 1000).toFixed(0)} s: ${(bytes / 1e6).toFixed(0)} MB (the base ${base}: ${(baseBytes / 1e6).toFixed(0)} MB; the service adds ${((bytes - baseBytes) / 1e6).toFixed(0)} MB)`);
  const user = podman(['image', 'inspect', IMAGE, '--format', '{{.Config.User}}']);
  if (user !== 'node') throw new Error(`the image runs as "${user}", not as the unprivileged user node`);
  const health = podman(['image', 'inspect', IMAGE, '--format', '{{json .Config.Healthcheck}}']);
  if (!health.includes('/api/v1/health')) throw new Error(`the image has no health check: ${health}`);

  const schema = `ci_image_${randomBytes(4).toString('hex')}`;
  const env = {
    NODE_ENV: 'production',
    DATABASE_URL,
    DATABASE_SCHEMA: schema,
    REDIS_URL,
    JWT_SECRET: randomBytes(32).toString('hex'),
    ENCRYPTION_KEY: randomBytes(32).toString('base64'),
    PLATFORM_ADMIN_EMAIL: ADMIN.email,
    PLATFORM_ADMIN_PASSWORD: ADMIN.password,
    LOG_LEVEL: 'warn',
    SHUTDOWN_DELAY_SECONDS: '1',
  };
  const envArgs = Object.entries(env).flatMap(([k, v]) => ['-e', `${k}=${v}`]);
  const name = `fleet-hos-check-${randomBytes(3).toString('hex')}`;
  try {
    const migrate = spawnSync('podman', ['run', '--rm', '--network', 'host', ...envArgs, IMAGE, 'migrate'], { encoding: 'utf8' });
    if (migrate.status !== 0) throw new Error(`the migrate role failed (${migrate.status}):\n${migrate.stdout}${migrate.stderr}`);
    step('the migrate role applied the migrations and exited 0');

    const port = await freePort();
    podman(['run', '-d', '--name', name, '--network', 'host', ...envArgs, '-e', `PORT=${port}`, '-e', 'HOST=127.0.0.1', '-e', 'PROCESS_ROLES=api,worker', IMAGE]);
    const url = `http://127.0.0.1:${port}`;
    const deadline = Date.now() + 60_000;
    for (;;) {
      const status = await fetch(`${url}/api/v1/health/ready`).then((r) => r.status, () => 0);
      if (status === 200) break;
      if (Date.now() > deadline) throw new Error(`not ready after 60 s:\n${podman(['logs', name])}`);
      await sleep(250);
    }
    const live = await (await fetch(`${url}/api/v1/health`)).json();
    if ((live as { status?: string }).status !== 'healthy') throw new Error(`health: ${JSON.stringify(live)}`);
    step('health: healthy; readiness: ready');
    const tenant = await provisionTenant(url, await adminApi(url), { name: 'Container Check Freight', routes: 1 });
    const route = await tenant.api.call<{ status: string; segments: unknown[] }>('GET', `/api/v1/routes/${tenant.routes[0]!.id}`);
    if (route.status !== 'ACTIVE' || route.segments.length === 0) throw new Error(`the route: ${JSON.stringify(route).slice(0, 300)}`);
    step(`registered, approved, logged in, planned and activated a route with ${route.segments.length} segments`);
    const dashboard = await fetch(`${url}/`);
    if (!dashboard.ok || !(await dashboard.text()).includes('<div id="root">')) throw new Error('the dashboard is not served');
    step('the dashboard is served at /');

    const stopAt = Date.now();
    podman(['stop', '-t', '30', name]);
    const exit = podman(['inspect', name, '--format', '{{.State.ExitCode}}']);
    const seconds = (Date.now() - stopAt) / 1000;
    if (exit !== '0') throw new Error(`podman stop: exit code ${exit}:\n${podman(['logs', name]).slice(-3000)}`);
    step(`podman stop (SIGTERM): exited 0 after ${seconds.toFixed(1)} s`);
  } finally {
    spawnSync('podman', ['rm', '-f', name]);
    const client = new pg.Client({ connectionString: DATABASE_URL });
    await client.connect();
    await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
    await client.end();
  }
}

main().then(
  () => process.exit(0),
  (err: unknown) => {
    console.error('container-check failed:', err instanceof Error ? err.message : err);
    process.exit(1);
  },
);
