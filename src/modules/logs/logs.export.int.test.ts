/**
 * The logs handed to an auditor, read back, on PGlite and PostgreSQL: the PDF (one page per day) through a
 * PDF text extractor — driver, date, each row's total, remarks, violations, certification, recap — and the
 * CSV parsed back equal to the API's records with their history. With DOCS_SCREENSHOTS=1 the page of the
 * 25-hour day is rendered to docs/images/daily-log-pdf.png.
 */
import fs from 'node:fs';
import path from 'node:path';
import { parse } from 'csv-parse/sync';
import { PDFParse } from 'pdf-parse';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../../test/helpers/app.js';
import { FakeClock } from '../../../test/helpers/clock.js';
import { DB_KINDS } from '../../../test/helpers/db.js';
import { DST_LOG } from '../../../test/helpers/dst-log.js';
import { createDriver, createTenant, createUser, type TenantFixture } from '../../../test/helpers/factories.js';
import { CSV_COLUMNS } from './logs.export.js';

const NOW = '2026-11-03T12:00:00.000Z';

describe.each(DB_KINDS)('printable and spreadsheet logs (%s)', (kind) => {
  let t: TestApp;
  let acme: TenantFixture;
  let driverId: string;
  let driverAuth: Record<string, string>;
  const clock = new FakeClock(NOW);

  beforeAll(async () => {
    t = await buildTestApp(kind, { clock });
    acme = await createTenant(t.app, { name: 'Daylight Freight' });
    driverId = (await createDriver(t.app, acme.auth, { firstName: 'Dana', lastName: 'Daylight', licenseNumber: 'TX1234567', licenseState: 'TX' })).id;
    driverAuth = (await createUser(t.app, t.mailer, acme, 'DRIVER', { driverId })).auth;
    for (const [i, [at, status]] of DST_LOG.entries()) {
      const payload = { status, at, ...(i === 1 ? { latitude: 32.7767, longitude: -96.797 } : {}), ...(i === 11 ? { note: 'Pre-trip inspection' } : {}) };
      const res = await t.app.inject({ method: 'POST', url: `/api/v1/drivers/${driverId}/duty-status`, headers: acme.auth, payload });
      expect(res.statusCode, res.body).toBe(201);
    }
    // History: a request she rejected, a correction of her own, a certification of Oct 31.
    const req = await t.app.inject({
      method: 'POST',
      url: `/api/v1/drivers/${driverId}/log-edits`,
      headers: acme.auth,
      payload: { from: '2026-11-02T12:00:00.000Z', to: '2026-11-02T12:30:00.000Z', entries: [{ status: 'OFF_DUTY', at: '2026-11-02T12:00:00.000Z' }], annotation: 'No pre-trip that morning' },
    });
    expect(req.statusCode, req.body).toBe(201);
    expect((await t.app.inject({ method: 'POST', url: `/api/v1/log-edits/${req.json<{ id: string }>().id}/reject`, headers: driverAuth, payload: {} })).statusCode).toBe(200);
    const own = await t.app.inject({
      method: 'POST',
      url: `/api/v1/drivers/${driverId}/log-edits`,
      headers: driverAuth,
      payload: { from: '2026-11-02T16:30:00.000Z', to: '2026-11-02T18:30:00.000Z', entries: [{ status: 'OFF_DUTY', at: '2026-11-02T16:30:00.000Z' }], annotation: 'Lunch, off duty, not the sleeper' },
    });
    expect(own.statusCode, own.body).toBe(201);
    expect((await t.app.inject({ method: 'POST', url: `/api/v1/drivers/${driverId}/logs/2026-10-31/certify`, headers: driverAuth })).statusCode).toBe(201);
  });
  afterAll(async () => t?.close());

  it('prints one page per day, read back: the driver, the date, each row’s total, remarks, violations, certification, recap', async () => {
    const res = await t.app.inject({ method: 'GET', url: `/api/v1/drivers/${driverId}/logs.pdf?from=2026-10-31&to=2026-11-02`, headers: acme.auth });
    expect(res.statusCode, res.body.slice(0, 300)).toBe(200);
    expect(res.headers['content-type']).toBe('application/pdf');
    expect(res.headers['content-disposition']).toBe('attachment; filename="Daylight-Dana-2026-10-31-to-2026-11-02.pdf"');
    const parser = new PDFParse({ data: new Uint8Array(res.rawPayload) });
    const text = await parser.getText();
    expect(text.pages).toHaveLength(3);
    const [oct31, nov1, nov2] = text.pages.map((p) => p.text.replace(/\s+/g, ' '));
    for (const page of [oct31, nov1, nov2]) {
      expect(page).toContain('Daylight Freight');
      expect(page).toContain('Dana Daylight · license TX1234567 (TX)');
      expect(page).toContain('America/Chicago');
    }
    expect(oct31).toContain('Saturday, October 31, 2026');
    expect(nov1).toContain('Sunday, November 1, 2026');
    expect(nov1).toContain('a 25-hour day: daylight saving time ended');
    // Row totals, in grid order (off duty, sleeper berth, driving, on duty), and the day's total.
    expect(oct31).toMatch(/12:30 0:00 10:30 1:00 Total 24:00/);
    expect(nov1).toMatch(/12:30 0:00 12:00 0:30 Total 25:00/);
    // Nov 2 after her own correction: the sleeper berth 16:30–18:30Z is off duty.
    expect(nov2).toMatch(/17:30 0:00 6:00 0:30 Total 24:00/);
    // Remarks: each change of status with its time and place; the correction's annotation.
    expect(oct31).toMatch(/06:30 CDT Driving, near Dallas, TX · entered by the carrier/);
    expect(nov2).toContain('Pre-trip inspection');
    expect(nov2).toContain('annotation: “Lunch, off duty, not the sleeper”');
    // The violation, the certification, the recap.
    expect(nov1).toMatch(/Driving limit exceeded: 16:00 CST to 17:00 CST \(1:00 past the limit\) — 49 CFR 395\.3\(a\)\(3\)\(i\)/);
    expect(oct31).toContain('Certified by the driver');
    expect(nov1).toContain('Not certified by the driver.');
    expect(nov1).toMatch(/On duty today 12:30 · on duty the last 8 days including today 24:00 · available tomorrow 46:00/);
    if (process.env.DOCS_SCREENSHOTS === '1' && kind === 'pglite') {
      const shot = await parser.getScreenshot({ partial: [2], desiredWidth: 1400 });
      const file = path.resolve(import.meta.dirname, '../../../docs/images/daily-log-pdf.png');
      fs.writeFileSync(file, Buffer.from(shot.pages[0]!.data));
    }
    await parser.destroy();
  });

  it('exports every record with its history as CSV, parsed back equal to the API’s records', async () => {
    const res = await t.app.inject({ method: 'GET', url: `/api/v1/drivers/${driverId}/logs.csv?from=2026-10-31&to=2026-11-02`, headers: acme.auth });
    expect(res.statusCode, res.body.slice(0, 300)).toBe(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    const rows = parse(res.body, { columns: true }) as Array<Record<(typeof CSV_COLUMNS)[number], string>>;
    expect(Object.keys(rows[0]!)).toEqual([...CSV_COLUMNS]);
    const api = (
      await t.app.inject({ method: 'GET', url: `/api/v1/drivers/${driverId}/duty-status?from=2026-10-31T05:00:00Z&to=2026-11-03T06:00:00Z&history=true`, headers: acme.auth })
    ).json<{ data: Array<{ id: string; recordStatus: string; origin: string; status: string; at: string; sequence: number; annotation: string | null; editId: string | null; note: string | null }> }>().data;
    const fromCsv = rows.map((r) => ({ id: r.record_id, recordStatus: r.record_status, origin: r.origin, status: r.status, at: r.start_utc, sequence: Number(r.sequence), annotation: r.annotation || null, editId: r.edit_id || null, note: r.note || null }));
    const fromApi = api.map((r) => ({ id: r.id, recordStatus: r.recordStatus, origin: r.origin, status: r.status, at: r.at, sequence: r.sequence, annotation: r.annotation, editId: r.editId, note: r.note }));
    const order = (a: { at: string; sequence: number }, b: { at: string; sequence: number }) => a.at.localeCompare(b.at) || a.sequence - b.sequence;
    expect(fromCsv.sort(order)).toEqual(fromApi.sort(order));
    // Every kind of record is there: the rejected request, the one her correction replaced, the ones it made.
    expect(new Set(rows.map((r) => r.record_status))).toEqual(new Set(['ACTIVE', 'INACTIVE_CHANGED', 'INACTIVE_CHANGE_REJECTED']));
    expect(rows.find((r) => r.record_status === 'INACTIVE_CHANGED')).toMatchObject({ status: 'SLEEPER_BERTH', log_date: '2026-11-02', start_local: '2026-11-02 10:30:00 America/Chicago' });
  });

  it('refuses what is no range, and another organization’s driver', async () => {
    expect((await t.app.inject({ method: 'GET', url: `/api/v1/drivers/${driverId}/logs.pdf?from=2026-13-01`, headers: acme.auth })).statusCode).toBe(400);
    const other = await createTenant(t.app, { name: 'Other Freight' });
    expect((await t.app.inject({ method: 'GET', url: `/api/v1/drivers/${driverId}/logs.csv`, headers: other.auth })).statusCode).toBe(404);
  });
});
