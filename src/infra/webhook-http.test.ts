import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebhookHttp, type HostResolver } from './webhook-http.js';

/** A fake DNS: the names the table uses, nothing else (tests never touch the network). */
const ZONE: Record<string, { address: string; family: 4 | 6 }[]> = {
  'hooks.example.com': [{ address: '93.184.216.34', family: 4 }],
  'dual.example.com': [
    { address: '2606:4700:4700::1111', family: 6 },
    { address: '1.1.1.1', family: 4 },
  ],
  'internal.example.test': [{ address: '10.0.0.5', family: 4 }],
  'metadata.example.test': [{ address: '169.254.169.254', family: 4 }],
  'mixed.example.test': [
    { address: '93.184.216.34', family: 4 },
    { address: '127.0.0.1', family: 4 },
  ],
  'ula.example.test': [{ address: 'fd00::1', family: 6 }],
  'mapped.example.test': [{ address: '::ffff:192.168.0.10', family: 6 }],
  'receiver.test': [{ address: '127.0.0.1', family: 4 }],
};
const fakeDns: HostResolver = async (host) => {
  const found = ZONE[host];
  if (!found) throw Object.assign(new Error(`no such host ${host}`), { code: 'ENOTFOUND' });
  return found;
};

const secure = new WebhookHttp({ allowInsecure: false, timeoutMs: 1_000, resolve: fakeDns });
const insecure = new WebhookHttp({ allowInsecure: true, timeoutMs: 1_000, resolve: fakeDns });

/** [target, allowed, part of the reason when refused] */
const TABLE: [string, boolean, string?][] = [
  // allowed: public unicast, by literal or by name
  ['https://93.184.216.34/hook', true],
  ['https://8.8.8.8:8443/x?y=1', true],
  ['https://hooks.example.com/fleet/events', true],
  ['https://HOOKS.example.com./trailing-dot', true],
  ['https://dual.example.com/', true],
  ['https://[2606:4700:4700::1111]/', true],
  ['https://[::ffff:8.8.8.8]/', true],
  ['https://172.32.0.1/', true],
  ['https://100.128.0.1/', true],
  ['https://11.0.0.1/', true],
  // refused: scheme, credentials, names
  ['http://hooks.example.com/', false, 'https'],
  ['ftp://hooks.example.com/', false, 'https'],
  ['not a url', false, 'valid'],
  ['https://user:pw@hooks.example.com/', false, 'credentials'],
  ['https://localhost/x', false, 'localhost'],
  ['https://LOCALHOST./x', false, 'localhost'],
  ['https://api.localhost/x', false, 'localhost'],
  ['https://nowhere.example.test/', false, 'could not be resolved'],
  // refused: IPv4 literals, in every notation the URL parser accepts
  ['https://127.0.0.1/', false, 'loopback'],
  ['https://127.1.2.3:8443/', false, 'loopback'],
  ['https://2130706433/', false, 'loopback'],
  ['https://0x7f.1/', false, 'loopback'],
  ['https://017700000001/', false, 'loopback'],
  ['https://0x7f000001/', false, 'loopback'],
  ['https://0.0.0.0/', false, 'unspecified'],
  ['https://10.1.2.3/', false, 'private'],
  ['https://172.16.0.1/', false, 'private'],
  ['https://172.31.255.255/', false, 'private'],
  ['https://192.168.1.1/', false, 'private'],
  ['https://100.64.0.1/', false, 'CGNAT'],
  ['https://169.254.169.254/latest/meta-data/', false, 'link-local'],
  ['https://224.0.0.1/', false, 'multicast'],
  ['https://240.0.0.1/', false, 'reserved'],
  ['https://255.255.255.255/', false, 'reserved'],
  ['https://198.18.0.1/', false, 'benchmarking'],
  ['https://192.0.2.10/', false, 'documentation'],
  // refused: IPv6 literals
  ['https://[::1]/', false, 'loopback'],
  ['https://[::]/', false, 'unspecified'],
  ['https://[::ffff:127.0.0.1]/', false, 'IPv4-mapped loopback'],
  ['https://[::ffff:a9fe:a9fe]/', false, 'IPv4-mapped link-local'],
  ['https://[fc00::1]/', false, 'unique local'],
  ['https://[fd12:3456::1]/', false, 'unique local'],
  ['https://[fe80::1]/', false, 'link-local'],
  ['https://[ff02::1]/', false, 'multicast'],
  ['https://[64:ff9b::a00:1]/', false, 'NAT64 private'],
  ['https://[2002:c0a8:101::1]/', false, '6to4 private'],
  ['https://[2001:db8::1]/', false, 'documentation'],
  ['https://[::7f00:1]/', false, 'IPv4-compatible'],
  // refused: names that resolve inside (checked on the resolved address; one bad address is enough)
  ['https://internal.example.test/', false, 'private'],
  ['https://metadata.example.test/', false, 'link-local'],
  ['https://mixed.example.test/', false, 'loopback'],
  ['https://ula.example.test/', false, 'unique local'],
  ['https://mapped.example.test/', false, 'IPv4-mapped private'],
];

describe('webhook target policy (SSRF)', () => {
  it('has a table of at least 30 targets', () => {
    expect(TABLE.length).toBeGreaterThanOrEqual(30);
    expect(TABLE.filter(([, ok]) => !ok).length).toBeGreaterThanOrEqual(30);
  });

  it.each(TABLE)('%s → allowed %s', async (target, allowed, why) => {
    const check = await secure.check(target);
    expect(check.ok).toBe(allowed);
    if (!check.ok && why) expect(check.reason).toContain(why);
  });

  it('WEBHOOK_ALLOW_INSECURE_TARGETS allows http and inside addresses, never other schemes', async () => {
    for (const t of ['http://127.0.0.1:8080/hook', 'http://receiver.test/x', 'https://10.0.0.1/', 'http://[::1]:3000/', 'http://internal.example.test/']) {
      expect((await insecure.check(t)).ok, t).toBe(true);
    }
    expect((await insecure.check('ftp://127.0.0.1/')).ok).toBe(false);
  });

  it('a refusal that WEBHOOK_ALLOW_INSECURE_TARGETS lifts names the setting; the others do not', async () => {
    for (const t of ['http://receiver.test/x', 'https://localhost:8443/', 'https://127.0.0.1/', 'https://192.168.1.1/', 'https://internal.example.test/', 'https://[::1]/']) {
      const check = await secure.check(t);
      expect(check.ok, t).toBe(false);
      if (!check.ok) expect(check.reason, t).toContain('started with WEBHOOK_ALLOW_INSECURE_TARGETS=true (development and tests only)');
    }
    for (const t of ['ftp://receiver.test/', 'https://user:pw@receiver.test/', 'https://receiver.test/#x', 'not a url']) {
      const check = await secure.check(t);
      expect(check.ok, t).toBe(false);
      if (!check.ok) expect(check.reason, t).not.toContain('WEBHOOK_ALLOW_INSECURE_TARGETS');
    }
  });
});

describe('webhook HTTP client', () => {
  const received: { url: string; host: string; headers: http.IncomingHttpHeaders }[] = [];
  let server: http.Server;
  let port = 0;
  const hanging: http.ServerResponse[] = [];

  beforeAll(async () => {
    server = http.createServer((req, res) => {
      received.push({ url: req.url ?? '', host: req.headers.host ?? '', headers: req.headers });
      req.resume();
      if (req.url === '/redirect') {
        res.writeHead(302, { location: `http://127.0.0.1:${port}/ok` }).end();
      } else if (req.url === '/hang') {
        hanging.push(res); // never answered
      } else if (req.url === '/headers-then-hang') {
        res.writeHead(200, { 'content-type': 'text/plain' });
        res.write('partial');
        hanging.push(res);
      } else if (req.url === '/busy') {
        res.writeHead(503, { 'retry-after': '120' }).end();
      } else {
        res.writeHead(204).end();
      }
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(async () => {
    for (const res of hanging) res.destroy();
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
    insecure.close();
    secure.close();
  });

  it('connects to the address it checked (the name is never resolved again by the system)', async () => {
    const before = received.length;
    const out = await insecure.post(`http://receiver.test:${port}/ok`, { 'x-test': '1' }, '{}');
    expect(out).toMatchObject({ statusCode: 204, error: null });
    expect(received.length).toBe(before + 1);
    expect(received.at(-1)!.host).toBe(`receiver.test:${port}`);
  });

  it('refuses at delivery time a name that now resolves inside, without connecting', async () => {
    const before = received.length;
    const out = await secure.post(`https://receiver.test:${port}/ok`, {}, '{}');
    expect(out.statusCode).toBeNull();
    expect(out.error).toMatch(/target refused: .*loopback/);
    expect(received.length).toBe(before);
  });

  it('does not follow a redirect: the attempt fails', async () => {
    const before = received.length;
    const out = await insecure.post(`http://127.0.0.1:${port}/redirect`, {}, '{}');
    expect(out.statusCode).toBe(302);
    expect(out.error).toMatch(/redirect \(302\) not followed/);
    expect(received.slice(before).map((r) => r.url)).toEqual(['/redirect']);
  });

  it('gives up when the receiver does not answer within the timeout', async () => {
    const quick = new WebhookHttp({ allowInsecure: true, timeoutMs: 150, resolve: fakeDns });
    const out = await quick.post(`http://127.0.0.1:${port}/hang`, {}, '{}');
    quick.close();
    expect(out.statusCode).toBeNull();
    expect(out.error).toBe('timed out after 150 ms');
    expect(out.durationMs).toBeGreaterThanOrEqual(140);
  });

  it('a 2xx whose body never ends still counts as answered at the deadline', async () => {
    const quick = new WebhookHttp({ allowInsecure: true, timeoutMs: 150, resolve: fakeDns });
    const out = await quick.post(`http://127.0.0.1:${port}/headers-then-hang`, {}, '{}');
    quick.close();
    expect(out).toMatchObject({ statusCode: 200, error: null });
  });

  it('name resolution counts against the timeout', async () => {
    const stuck = new WebhookHttp({ allowInsecure: false, timeoutMs: 100, resolve: () => new Promise(() => undefined) });
    const out = await stuck.post('https://hooks.example.com/', {}, '{}');
    expect(out.statusCode).toBeNull();
    expect(out.error).toBe('target refused: name resolution timed out after 100 ms');
  });

  it('reports the status and Retry-After of a failure', async () => {
    const out = await insecure.post(`http://127.0.0.1:${port}/busy`, {}, '{}');
    expect(out).toMatchObject({ statusCode: 503, retryAfter: '120', error: 'receiver answered 503' });
  });

  it('a refused connection is an error, not a throw', async () => {
    const closed = http.createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const deadPort = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    const out = await insecure.post(`http://127.0.0.1:${deadPort}/`, {}, '{}');
    expect(out).toMatchObject({ statusCode: null, error: 'connection refused' });
  });
});
