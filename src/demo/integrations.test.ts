import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { VENDOR_SANDBOXES } from '../adapters/integrations/sandboxes.js';
import { integrationBanner, pointServiceAtSandboxes, startDemoSandboxes, type DemoSandboxes } from './integrations.js';

describe("the demo's sandboxes", () => {
  let sandboxes: DemoSandboxes;
  beforeAll(async () => {
    sandboxes = await startDemoSandboxes();
  });
  afterAll(async () => {
    await sandboxes?.close();
  });

  it('runs every vendor sandbox on its own port and names each environment variable', async () => {
    expect(sandboxes.all.map((s) => s.vendor)).toEqual(VENDOR_SANDBOXES.map((s) => s.vendor));
    expect(new Set(sandboxes.all.map((s) => s.sandbox.url)).size).toBe(VENDOR_SANDBOXES.length);
    const withVar = VENDOR_SANDBOXES.filter((s) => s.envVar);
    expect(Object.keys(sandboxes.env).sort()).toEqual(withVar.map((s) => s.envVar!).sort());
    const res = await fetch(`${sandboxes.env.SAMSARA_BASE_URL}/me`);
    expect(res.status).toBe(401);
  });

  it("sets the variables the user has not, keeps the user's and says which vendors they point elsewhere", () => {
    const env: NodeJS.ProcessEnv = { SAMSARA_BASE_URL: 'https://api.samsara.com', NWS_BASE_URL: '' };
    expect(pointServiceAtSandboxes(sandboxes, env)).toEqual(['samsara']);
    expect(env.SAMSARA_BASE_URL).toBe('https://api.samsara.com');
    expect(env.NWS_BASE_URL).toBe(sandboxes.env.NWS_BASE_URL);
    expect(env.MOTIVE_BASE_URL).toBe(sandboxes.env.MOTIVE_BASE_URL);
  });

  it('the banner has a line per vendor: what it shows, or why its test failed', () => {
    const lines = integrationBanner(
      [
        { vendor: 'samsara', id: 'int_1', ok: true, message: 'Connected' },
        { vendor: 'nws', id: 'int_2', ok: false, message: 'Forbidden' },
      ],
      'http://127.0.0.1:3000',
      'key',
      ['samsara'],
    );
    expect(lines.find((l) => l.includes('samsara '))).toMatch(/Samsara \(HOS source "samsara"\).*set by you/);
    expect(lines.find((l) => l.includes('nws '))).toMatch(/connection test failed: Forbidden$/);
    expect(lines[lines.length - 1]).toContain('curl -s "http://127.0.0.1:3000/api/v1/integrations" -H "x-api-key: key"');
  });
});
