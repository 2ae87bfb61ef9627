/**
 * The deployment files hold together: the Kubernetes manifests validate against the Kubernetes schemas
 * (kubernetes-models) as written and as kustomize renders them (when kubectl is here), and refer to each
 * other correctly; compose.yaml passes `docker-compose config` / `podman-compose config` (when one is
 * installed) and runs what the soak runs; the HAProxy configuration passes `haproxy -c`; .env.example
 * names every variable the service reads; the Dockerfile and the `start` script give the same V8 flags.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseAllDocuments, parse as parseYaml } from 'yaml';
import { describe, expect, it } from 'vitest';
import { NODE_FLAGS } from '../../src/runtime.js';

const ROOT = path.resolve(import.meta.dirname, '../..');
const K8S = path.join(ROOT, 'deploy/kubernetes');

function have(cmd: string): boolean {
  return spawnSync('sh', ['-c', `command -v ${cmd}`]).status === 0;
}

type Resource = { apiVersion: string; kind: string; metadata: { name: string; [k: string]: unknown }; [k: string]: unknown };

/** The kubernetes-models class for a resource, by its apiVersion and kind (core resources live under v1/). */
async function modelOf(r: Resource): Promise<new (data: unknown) => { validate(): void }> {
  const group = r.apiVersion.includes('/') ? r.apiVersion : `v1`;
  const mod = (await import(`kubernetes-models/${group}/${r.kind}`)) as Record<string, new (data: unknown) => { validate(): void }>;
  const model = mod[r.kind] ?? mod.default;
  if (!model) throw new Error(`no model for ${r.apiVersion} ${r.kind}`);
  return model;
}

async function validateAll(resources: Resource[]): Promise<void> {
  for (const r of resources) {
    const Model = await modelOf(r);
    expect(() => new Model(r).validate(), `${r.kind} ${r.metadata.name}`).not.toThrow();
  }
}

function docs(text: string): Resource[] {
  return parseAllDocuments(text)
    .map((d) => d.toJS() as Resource | null)
    .filter((r): r is Resource => r !== null);
}

/** The variables config.ts reads (every one goes through its Reader). */
function configVariables(): string[] {
  const source = fs.readFileSync(path.join(ROOT, 'src/config.ts'), 'utf8');
  return [...new Set([...source.matchAll(/r\.(?:str|int|bool|url|oneOf)\('([A-Z0-9_]+)'/g)].map((m) => m[1]!))].sort();
}

describe('Kubernetes manifests', () => {
  const baseFiles = fs.readdirSync(path.join(K8S, 'base')).filter((f) => f.endsWith('.yaml') && f !== 'kustomization.yaml');

  it('every base manifest is a valid Kubernetes resource', async () => {
    const resources = baseFiles.flatMap((f) => docs(fs.readFileSync(path.join(K8S, 'base', f), 'utf8')));
    expect(resources.map((r) => r.kind).sort()).toEqual(['ConfigMap', 'Deployment', 'Deployment', 'HorizontalPodAutoscaler', 'Ingress', 'Job', 'PodDisruptionBudget', 'PodDisruptionBudget', 'Service']);
    await validateAll(resources);
  });

  it('the kustomization lists every manifest of the base', () => {
    const k = parseYaml(fs.readFileSync(path.join(K8S, 'base/kustomization.yaml'), 'utf8')) as { resources: string[] };
    expect([...k.resources].sort()).toEqual([...baseFiles].sort());
  });

  it.skipIf(!have('kubectl'))('the production overlay renders (kubectl kustomize) to valid resources that refer to each other', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fleet-k8s-'));
    try {
      fs.cpSync(K8S, path.join(dir, 'kubernetes'), { recursive: true });
      const overlay = path.join(dir, 'kubernetes/overlays/production');
      fs.copyFileSync(path.join(overlay, 'secrets.env.example'), path.join(overlay, 'secrets.env'));
      const rendered = docs(execFileSync('kubectl', ['kustomize', overlay], { encoding: 'utf8' }));
      // kustomize folds long base64 values over lines; the API server's decoder skips the newlines, the schema's pattern does not.
      for (const r of rendered) if (r.kind === 'Secret') for (const [k, v] of Object.entries((r.data ?? {}) as Record<string, string>)) (r.data as Record<string, string>)[k] = v.replace(/\s+/g, '');
      await validateAll(rendered);
      const find = (kind: string, name: string) => rendered.find((r) => r.kind === kind && r.metadata.name.startsWith(name)) as Record<string, any>;
      const api = find('Deployment', 'fleet-hos-api');
      const worker = find('Deployment', 'fleet-hos-worker');
      const job = find('Job', 'fleet-hos-migrate');
      const secret = find('Secret', 'fleet-hos-secrets');
      const config = find('ConfigMap', 'fleet-hos-config');
      expect(rendered.every((r) => r.kind === 'Namespace' || r.metadata.namespace === 'fleet-hos')).toBe(true);
      for (const [w, role] of [[api, 'api'], [worker, 'worker']] as const) {
        const c = w.spec.template.spec.containers[0];
        expect(c.image).toBe('registry.example.com/fleet-hos:0.1.0');
        expect(c.env).toContainEqual({ name: 'PROCESS_ROLES', value: role });
        // The generated Secret (name with its hash) and the ConfigMap are what the pods read.
        expect(c.envFrom).toEqual([{ configMapRef: { name: config.metadata.name } }, { secretRef: { name: secret.metadata.name } }]);
        expect(c.livenessProbe.httpGet.path).toBe('/api/v1/health');
        expect(c.resources.requests.memory).toBeDefined();
        expect(c.resources.limits.memory).toBeDefined();
        // The pod's grace period covers the service's own shutdown bound.
        expect(w.spec.template.spec.terminationGracePeriodSeconds).toBeGreaterThan(Number(config.data.SHUTDOWN_TIMEOUT_SECONDS));
      }
      expect(api.spec.template.spec.containers[0].readinessProbe.httpGet.path).toBe('/api/v1/health/ready');
      expect(job.spec.template.spec.containers[0].args).toEqual(['migrate']);
      expect(job.spec.template.spec.containers[0].image).toBe('registry.example.com/fleet-hos:0.1.0');
      // Selectors: the Service, the PDB and the HPA reach the api pods.
      const podLabels = api.spec.template.metadata.labels as Record<string, string>;
      const matches = (selector: Record<string, string>) => Object.entries(selector).every(([k, v]) => podLabels[k] === v);
      expect(matches(find('Service', 'fleet-hos-api').spec.selector)).toBe(true);
      expect(matches(find('PodDisruptionBudget', 'fleet-hos-api').spec.selector.matchLabels)).toBe(true);
      expect(find('HorizontalPodAutoscaler', 'fleet-hos-api').spec.scaleTargetRef).toMatchObject({ kind: 'Deployment', name: api.metadata.name });
      const ingress = find('Ingress', 'fleet-hos');
      expect(ingress.metadata.annotations['nginx.ingress.kubernetes.io/affinity']).toBe('cookie');
      expect(ingress.spec.rules[0].http.paths[0].backend.service.name).toBe('fleet-hos-api');
      expect(ingress.spec.tls[0].secretName).toBe('fleet-hos-tls');
      // Every key the Secret and the ConfigMap set is a variable the service reads.
      const known = new Set(configVariables());
      for (const key of [...Object.keys(secret.data ?? {}), ...Object.keys(config.data)]) expect(known.has(key), key).toBe(true);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('compose', () => {
  const compose = parseYaml(fs.readFileSync(path.join(ROOT, 'compose.yaml'), 'utf8'), { merge: true }) as { services: Record<string, any>; volumes: Record<string, unknown> };

  it('is the soak\'s topology: PostgreSQL, Redis, a one-shot migrate the others wait for, 2 api behind HAProxy, 2 workers, osrm on a profile', () => {
    const s = compose.services;
    expect(Object.keys(s).sort()).toEqual(['api', 'migrate', 'osrm', 'postgres', 'proxy', 'redis', 'worker']);
    expect(s.migrate.environment.PROCESS_ROLES).toBe('migrate');
    expect(s.migrate.restart).toBe('no');
    for (const name of ['api', 'worker']) {
      expect(s[name].environment.PROCESS_ROLES).toBe(name);
      expect(s[name].deploy.replicas).toBe(2);
      expect(s[name].depends_on.migrate.condition).toBe('service_completed_successfully');
      expect(s[name].environment.NODE_ENV).toBe('production');
    }
    expect(s.migrate.depends_on.postgres.condition).toBe('service_healthy');
    expect(s.proxy.volumes[0]).toBe('./deploy/haproxy/haproxy.cfg:/usr/local/etc/haproxy/haproxy.cfg:ro');
    expect(s.osrm.profiles).toEqual(['osrm']);
    expect(Object.keys(compose.volumes).sort()).toEqual(['data', 'pgdata']);
  });

  const tool = have('docker-compose') ? ['docker-compose'] : have('podman-compose') ? ['podman-compose'] : null;
  it.skipIf(!tool)('passes `compose config` with the variables of .env.example (secrets filled in)', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fleet-compose-'));
    try {
      fs.copyFileSync(path.join(ROOT, 'compose.yaml'), path.join(dir, 'compose.yaml'));
      const env = fs
        .readFileSync(path.join(ROOT, '.env.example'), 'utf8')
        .replace(/^POSTGRES_PASSWORD=$/m, 'POSTGRES_PASSWORD=compose-test')
        .replace(/^JWT_SECRET=$/m, `JWT_SECRET=${'a'.repeat(64)}`)
        .replace(/^ENCRYPTION_KEY=$/m, `ENCRYPTION_KEY=${Buffer.alloc(32, 1).toString('base64')}`);
      fs.writeFileSync(path.join(dir, '.env'), env);
      const out = execFileSync(tool![0]!, ['-f', path.join(dir, 'compose.yaml'), 'config'], { cwd: dir, encoding: 'utf8', env: { PATH: process.env.PATH ?? '' } });
      expect(out).toContain('DATABASE_URL: postgres://fleet:compose-test@postgres:5432/fleet');
      // Without the secrets it refuses, naming what to set.
      fs.writeFileSync(path.join(dir, '.env'), fs.readFileSync(path.join(ROOT, '.env.example')));
      const refused = spawnSync(tool![0]!, ['-f', path.join(dir, 'compose.yaml'), 'config'], { cwd: dir, encoding: 'utf8', env: { PATH: process.env.PATH ?? '' } });
      expect(refused.status).not.toBe(0);
      expect(refused.stderr + refused.stdout).toMatch(/set (POSTGRES_PASSWORD|JWT_SECRET|ENCRYPTION_KEY) in \.env/);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('.env.example names every variable the service reads', () => {
    const example = fs.readFileSync(path.join(ROOT, '.env.example'), 'utf8');
    const missing = configVariables().filter((v) => !new RegExp(`\\b${v}\\b`).test(example));
    expect(missing).toEqual([]);
  });
});

describe('HAProxy', () => {
  it.skipIf(!have('haproxy'))('its configuration is valid, with service discovery (compose) and with fixed servers (the soak)', () => {
    const cfg = path.join(ROOT, 'deploy/haproxy/haproxy.cfg');
    for (const env of [{}, { API_SERVER_1: '127.0.0.1:3001', API_SERVER_2: '127.0.0.1:3002' }]) {
      const r = spawnSync('haproxy', ['-c', '-f', cfg], { encoding: 'utf8', env: { PATH: process.env.PATH ?? '', ...env } });
      expect(r.status, r.stderr + r.stdout).toBe(0);
    }
  });
});

describe('the image', () => {
  const dockerfile = fs.readFileSync(path.join(ROOT, 'Dockerfile'), 'utf8');

  it('runs the service with the V8 flags on the command line, as `npm start` does, as a non-root user, with a health check', () => {
    const entry = /^ENTRYPOINT (\[.*\])$/m.exec(dockerfile)?.[1];
    expect(JSON.parse(entry!)).toEqual(['node', ...NODE_FLAGS, 'dist/main.js']);
    const pkg = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> };
    expect(pkg.scripts.start).toContain(`node ${NODE_FLAGS.join(' ')} dist/main.js`);
    expect(pkg.scripts.demo).toContain(`node ${NODE_FLAGS.join(' ')} dist/demo/index.js`);
    expect(dockerfile).toMatch(/^ARG NODE_IMAGE=node:24-bookworm-slim$/m);
    expect(dockerfile).toMatch(/^USER node$/m);
    expect(dockerfile).toMatch(/^HEALTHCHECK /m);
    // The docs that explain the flags name exactly these (README's table, docs/architecture.md).
    const readme = fs.readFileSync(path.join(ROOT, 'README.md'), 'utf8');
    const architecture = fs.readFileSync(path.join(ROOT, 'docs/architecture.md'), 'utf8');
    const flagsIn = (text: string) => [...new Set(text.match(/--(?:liftoff|no-liftoff|heap-growing|max-semi|max-old|turbo|wasm|single-threaded)[\w-]*(?:=\d+)?/g) ?? [])].sort();
    expect(flagsIn(readme)).toEqual([...NODE_FLAGS].sort());
    expect(flagsIn(architecture)).toEqual([...NODE_FLAGS].sort());
    expect(readme).toContain(`start Node with ${['one', 'two', 'three', 'four'][NODE_FLAGS.length - 1]} V8 flags`);
    // No run-time V8 flag changes anywhere in the service.
    const found = spawnSync('grep', ['-rl', 'setFlagsFromString', path.join(ROOT, 'src')], { encoding: 'utf8' }).stdout.trim().split('\n').filter(Boolean);
    expect(found).toEqual([]);
  });
});
