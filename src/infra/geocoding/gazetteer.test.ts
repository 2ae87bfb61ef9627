import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { scanZipcodes, zipcodesEntries, type ZipcodesEntry } from './gazetteer.js';

const require = createRequire(import.meta.url);
const codesFile = join(dirname(require.resolve('zipcodes')), 'codes.js');

/** What the table was read as before: the literal parsed as JSON, in Object.values order. */
function parsed(text: string): ZipcodesEntry[] {
  return Object.values(JSON.parse(/^exports\.codes = (\{.*\});?$/m.exec(text)![1]!) as Record<string, ZipcodesEntry>);
}

const entry = (zip: string, city = 'Town') => `"${zip}":{"zip":"${zip}","latitude":40.5,"longitude":-73.25,"city":"${city}","state":"NY","country":"US"}`;
const file = (...entries: string[]) => `exports.codes = {${entries.join(',')}};\n`;

describe('zipcodes table read from its text', () => {
  it('gives exactly the entries, in the order, of the literal parsed as JSON (the installed package)', () => {
    const text = readFileSync(codesFile, 'utf8');
    const scanned = scanZipcodes(text);
    expect(scanned).toBeDefined();
    expect([...scanned!]).toEqual(parsed(text));
    expect([...zipcodesEntries(require)]).toEqual(parsed(text));
  });

  it('orders array-index keys ascending before the ZIPs with a leading zero, as Object.values does', () => {
    const text = file(entry('20001'), entry('01001'), entry('10001'), entry('00501'));
    expect([...scanZipcodes(text)!].map((e) => e.zip)).toEqual(['10001', '20001', '01001', '00501']);
    expect([...scanZipcodes(text)!]).toEqual(parsed(text));
  });

  it('gives up (so the caller parses the file) on anything not in the expected shape', () => {
    expect(scanZipcodes(file(entry('10001'), '"10002":{"zip":"10002","latitude":1,"longitude":2,"city":"A","state":"NY","country":"US","extra":1}'))).toBeUndefined();
    expect(scanZipcodes(file(entry('10001'), entry('10001')))).toBeUndefined();
    expect(scanZipcodes(file(entry('01001'), entry('01001')))).toBeUndefined();
    expect(scanZipcodes(file(entry('10001', 'Esca\\u00f1o')))).toBeUndefined();
    expect(scanZipcodes('module.exports = {};')).toBeUndefined();
    expect(scanZipcodes(`exports.codes = {${entry('10001')}}, other = 1;`)).toBeUndefined();
    expect([...scanZipcodes(file(entry('10001')) + 'exports.stateMap = {"NY":["10001"]};\n')!].map((e) => e.zip)).toEqual(['10001']);
    expect(scanZipcodes(file())).toBeUndefined();
  });
});

describe('preloadGazetteer', () => {
  it('builds the tables in a child process and rebuilds exactly the gazetteer this process would build', async () => {
    const { execFileSync } = await import('node:child_process');
    const tsx = join(dirname(require.resolve('tsx/package.json')), 'dist', 'cli.mjs');
    const out = execFileSync(process.execPath, [tsx, 'test/fixtures/gazetteer-preload.ts'], { encoding: 'utf8', timeout: 60_000 });
    expect(JSON.parse(out.trim().split('\n').at(-1)!)).toEqual({
      builtIn: 'child process',
      equal: true,
      places: expect.any(Number),
      sameAnswers: true,
      nearest: 'Dallas, TX',
      zip: 'Dallas, TX',
    });
  });

  it('builds in this process where the child cannot load the module (here: TypeScript compiled by the test runner)', async () => {
    const { preloadGazetteer } = await import('./gazetteer.js');
    const gazetteer = await preloadGazetteer();
    expect(gazetteer.stats.builtIn).toBe('this process');
    expect(gazetteer.stats.places).toBeGreaterThan(25_000);
    expect(gazetteer.zip('10001')?.name).toBe('New York, NY');
  });
});
