import fs from 'node:fs';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import openapiTS, { astToString, type OpenAPI3 } from 'openapi-typescript';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { DB_KINDS } from '../helpers/db.js';
import { createApiKey, createTenant } from '../helpers/factories.js';

/**
 * A client generated from the served OpenAPI document with openapi-typescript, used through
 * openapi-fetch: the client file below must type-check under strict settings (including two calls
 * that must NOT type-check), then runs against the app listening on a real port.
 */

const GENERATED = path.resolve(import.meta.dirname, '../.generated');

const CLIENT = `import createClient from 'openapi-fetch';
import type { paths } from './api.js';

type Driver = paths['/api/v1/drivers/{driverId}']['get']['responses'][200]['content']['application/json'];

export async function exercise(baseUrl: string, apiKey: string): Promise<{ created: Driver; fetched: Driver; listed: string[] }> {
  const client = createClient<paths>({ baseUrl, headers: { 'X-API-Key': apiKey } });
  const created = await client.POST('/api/v1/drivers', {
    body: { firstName: 'Dana', lastName: 'Rivera', licenseNumber: 'D7654321', licenseState: 'TX', truckNumber: 'T-104' },
  });
  if (created.error) throw new Error('createDriver: ' + created.error.message);
  const driverId: string = created.data.id;
  const fetched = await client.GET('/api/v1/drivers/{driverId}', { params: { path: { driverId } } });
  if (fetched.error) throw new Error('getDriver: ' + fetched.error.message);
  const status: 'PENDING' | 'ACTIVE' | 'INACTIVE' = fetched.data.status;
  const listed = await client.GET('/api/v1/drivers', { params: { query: { status, pageSize: 5 } } });
  if (listed.error) throw new Error('listDrivers: ' + listed.error.message);
  const total: number = listed.data.total;

  // What the types refuse: a driver without its required licenseState, and a path the API does not have.
  // @ts-expect-error licenseState is required
  const refused = () => client.POST('/api/v1/drivers', { body: { firstName: 'A', lastName: 'B', licenseNumber: 'X1' } });
  // @ts-expect-error no such path
  const unknown = () => client.GET('/api/v1/no-such-path');
  void refused;
  void unknown;

  return { created: created.data, fetched: fetched.data, listed: listed.data.data.map((d) => d.firstName + ' ' + d.lastName + ' of ' + total) };
}
`;

/** Strict type-check (compiler API, one program) of each file and what it imports; the messages per file. */
function typeCheck(files: string[]): string[][] {
  const program = ts.createProgram(files, {
    strict: true,
    noUncheckedIndexedAccess: true,
    exactOptionalPropertyTypes: true,
    noEmit: true,
    skipLibCheck: true,
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    lib: ['lib.es2022.d.ts', 'lib.dom.d.ts'],
    types: [],
  });
  const messages = (d: ts.Diagnostic) => {
    const where = d.file && d.start !== undefined ? `${path.basename(d.file.fileName)}:${d.file.getLineAndCharacterOfPosition(d.start).line + 1} ` : '';
    return where + ts.flattenDiagnosticMessageText(d.messageText, '\n');
  };
  const global = [...program.getOptionsDiagnostics(), ...program.getGlobalDiagnostics()].map(messages);
  return files.map((f) => [...global, ...ts.getPreEmitDiagnostics(program, program.getSourceFile(f)).map(messages)]);
}

describe.each(DB_KINDS)('a typed client generated from the OpenAPI document (%s)', (kind) => {
  let t: TestApp;
  let baseUrl: string;
  let dir: string;
  beforeAll(async () => {
    t = await buildTestApp(kind);
    await t.app.listen({ host: '127.0.0.1', port: 0 });
    baseUrl = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
    fs.mkdirSync(GENERATED, { recursive: true });
    dir = fs.mkdtempSync(path.join(GENERATED, `client-${kind}-`));
  });
  afterAll(async () => {
    await t?.close();
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  it('generates with openapi-typescript, type-checks strictly, and creates, reads and lists a driver through openapi-fetch', async () => {
    const res = await fetch(`${baseUrl}/api/v1/openapi.json`);
    expect(res.status).toBe(200);
    const ast = await openapiTS((await res.json()) as OpenAPI3);
    fs.writeFileSync(path.join(dir, 'api.d.ts'), astToString(ast));
    const clientFile = path.join(dir, 'client.ts');
    fs.writeFileSync(clientFile, CLIENT);

    // The check is real: the same file without the directive on the refused call must not compile.
    const broken = path.join(dir, 'broken.ts');
    fs.writeFileSync(broken, CLIENT.replace('// @ts-expect-error licenseState is required\n', ''));
    const [clientErrors, brokenErrors] = typeCheck([clientFile, broken]);
    expect(clientErrors).toEqual([]);
    expect(brokenErrors!.join('\n')).toMatch(/broken\.ts:\d+ .*licenseState/s);

    const tenant = await createTenant(t.app);
    const { key } = await createApiKey(t.app, tenant);
    const { exercise } = (await import(/* @vite-ignore */ clientFile)) as { exercise: (baseUrl: string, apiKey: string) => Promise<{ created: { id: string; status: string }; fetched: Record<string, unknown>; listed: string[] }> };
    const out = await exercise(baseUrl, key);
    expect(out.created).toMatchObject({ id: expect.stringMatching(/^drv_/), firstName: 'Dana', lastName: 'Rivera', licenseState: 'TX', status: 'ACTIVE' });
    expect(out.fetched).toEqual(out.created);
    expect(out.listed).toEqual(['Dana Rivera of 1']);
  });
});
