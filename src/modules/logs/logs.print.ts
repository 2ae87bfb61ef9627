/**
 * Printable daily logs: one page per day, as an inspector reads a record of duty status (49 CFR 395.8(d)–(f)
 * lists what the record holds; 395.8(h) the graph grid): the carrier and its USDOT number, the home terminal
 * and the zone its clocks keep, the driver, co-driver, trucks, trailers and shipping documents, the 24-hour
 * grid with the four rows and the line drawn through them, each row's total, the remarks (every change of
 * status with where and when), annotations, violations marked on the grid, the certification, the miles and
 * the recap. Drawn with PDFKit (the standard fonts: nothing to download or embed).
 *
 * Row totals are whole minutes between the minute-rounded ends of each stretch, so the four rows add up to
 * the day exactly (24:00, or 25:00 / 23:00 on the days daylight saving time ends / begins).
 */
import PDFDocument from 'pdfkit';
import type { DayAnswer } from './logs.service.js';

export interface PrintHeader {
  carrier: string;
  dotNumber: string | null;
  homeTerminal: string;
  timeZone: string;
  driver: string;
  license: string;
}

export interface PrintDay {
  day: DayAnswer;
  coDrivers: string[];
  trucks: string[];
  trailers: string[];
  shippingDocuments: string[];
}

const ROWS = [
  ['OFF_DUTY', '1. Off duty'],
  ['SLEEPER_BERTH', '2. Sleeper berth'],
  ['ON_DUTY_DRIVING', '3. Driving'],
  ['ON_DUTY_NOT_DRIVING', '4. On duty (not driving)'],
] as const;
const STATUS_WORDS: Record<string, string> = { OFF_DUTY: 'Off duty', SLEEPER_BERTH: 'Sleeper berth', ON_DUTY_DRIVING: 'Driving', ON_DUTY_NOT_DRIVING: 'On duty (not driving)' };
const ORIGIN_WORDS: Record<string, string> = { AUTOMATIC: 'recorded by the ELD', DRIVER: 'entered by the driver', OTHER_USER: 'entered by the carrier', UNIDENTIFIED_ASSUMED: 'unidentified driving assumed' };
const VIOLATION_WORDS: Record<string, string> = {
  DRIVE: 'Driving limit exceeded',
  WINDOW: 'Driving after the on-duty window',
  BREAK: 'Driving without the 30-minute break',
  CYCLE: 'Driving past the cycle limit',
  DAILY_DRIVE: 'Daily driving limit exceeded',
  DAILY_ON_DUTY: 'Daily on-duty limit exceeded',
};

const MIN = 60_000;
const minute = (iso: string) => Math.round(Date.parse(iso) / MIN);

/** "7:05": whole minutes as h:mm. */
export const hmm = (minutes: number) => `${Math.floor(minutes / 60)}:${String(minutes % 60).padStart(2, '0')}`;

/** Whole minutes per status between the minute-rounded ends of each event: they add up to the day's minutes. */
export function rowMinutes(day: Pick<DayAnswer, 'events' | 'periodStart' | 'periodEnd'>, until: string): Record<string, number> {
  const out: Record<string, number> = { OFF_DUTY: 0, SLEEPER_BERTH: 0, ON_DUTY_DRIVING: 0, ON_DUTY_NOT_DRIVING: 0 };
  const start = minute(day.periodStart);
  const first = day.events[0] ? minute(day.events[0].start) : minute(until);
  // Before the first record the driver is off duty (the daily log's totals count it so).
  out.OFF_DUTY! += Math.max(0, first - start);
  for (const e of day.events) out[e.status] = (out[e.status] ?? 0) + (minute(e.end) - minute(e.start));
  return out;
}

const local = (iso: string, zone: string, opts: Intl.DateTimeFormatOptions) => new Intl.DateTimeFormat('en-US', { timeZone: zone, ...opts }).format(new Date(iso));
const clock = (iso: string, zone: string) => local(iso, zone, { hour: '2-digit', minute: '2-digit', hourCycle: 'h23', timeZoneName: 'short' });
const longDate = (date: string) => new Intl.DateTimeFormat('en-US', { weekday: 'long', year: 'numeric', month: 'long', day: 'numeric', timeZone: 'UTC' }).format(new Date(`${date}T12:00:00Z`));
const list = (xs: readonly string[]) => (xs.length === 0 ? '—' : xs.join(', '));

/** The PDF of `days` (oldest first), one page each. */
export async function renderLogsPdf(header: PrintHeader, days: readonly PrintDay[], now: Date): Promise<Buffer> {
  const doc = new PDFDocument({
    size: 'LETTER',
    layout: 'landscape',
    margin: 36,
    autoFirstPage: false,
    info: { Title: `Records of duty status — ${header.driver}`, Author: header.carrier, Subject: 'Driver’s daily logs (49 CFR 395.8)', CreationDate: now },
  });
  const chunks: Buffer[] = [];
  doc.on('data', (c: Buffer) => chunks.push(c));
  const done = new Promise<Buffer>((resolve) => doc.on('end', () => resolve(Buffer.concat(chunks))));

  for (const { day, coDrivers, trucks, trailers, shippingDocuments } of days) {
    doc.addPage();
    const W = doc.page.width - 72;
    const zone = day.timeZone;
    const hours = Math.round((Date.parse(day.periodEnd) - Date.parse(day.periodStart)) / 3_600_000);
    const until = Date.parse(day.periodEnd) <= now.getTime() ? day.periodEnd : now.toISOString();

    // Title and header.
    doc.font('Helvetica-Bold').fontSize(15).text(`Driver’s Daily Log — ${longDate(day.date)}`, 36, 30);
    doc.font('Helvetica').fontSize(8.5).fillColor('#444').text(`24-hour period from ${clock(day.periodStart, zone)} (${zone}${hours === 24 ? '' : `, a ${hours}-hour day: daylight saving time ${hours > 24 ? 'ended' : 'began'}`}). 49 CFR 395.8.`, 36, 50);
    doc.fillColor('black');
    const facts: Array<[string, string]> = [
      ['Carrier', `${header.carrier}${header.dotNumber ? ` · USDOT ${header.dotNumber}` : ''}`],
      ['Home terminal', `${header.homeTerminal} (${header.timeZone})`],
      ['Driver', `${header.driver} · license ${header.license}`],
      ['Co-driver', list(coDrivers)],
      ['Trucks', list(trucks)],
      ['Trailers', list(trailers)],
      ['Shipping documents', list(shippingDocuments)],
      ['Miles driven today', day.milesDriven === null ? 'not reported' : `${Math.round(day.milesDriven).toLocaleString('en-US')} mi`],
    ];
    let y = 66;
    facts.forEach(([k, v], i) => {
      const x = 36 + (i % 2) * (W / 2);
      if (i % 2 === 0 && i > 0) y += 13;
      doc.font('Helvetica-Bold').fontSize(8.5).text(`${k}: `, x, y, { continued: true }).font('Helvetica').text(v, { width: W / 2 - 10, lineBreak: false, ellipsis: true });
    });

    // The grid.
    const gridTop = y + 24;
    const labelW = 120;
    const totalW = 50;
    const gx = 36 + labelW;
    const gw = W - labelW - totalW;
    const rowH = 22;
    const start = Date.parse(day.periodStart);
    const span = Date.parse(day.periodEnd) - start;
    const xAt = (iso: string) => gx + (gw * (Date.parse(iso) - start)) / span;
    const rowOf = (status: string) => ROWS.findIndex(([s]) => s === status);
    // Hour labels by the local clock at each hour of the period.
    doc.fontSize(6.5).fillColor('#444');
    for (let h = 0; h <= hours; h++) {
      const at = new Date(start + h * 3_600_000).toISOString();
      const label = h === hours ? '' : local(at, zone, { hour: 'numeric', hourCycle: 'h23' });
      doc.text(label, gx + (gw * h) / hours - 6, gridTop - 9, { width: 12, align: 'center' });
    }
    doc.fillColor('black');
    ROWS.forEach(([, label], r) => {
      const top = gridTop + r * rowH;
      doc.rect(gx, top, gw, rowH).lineWidth(0.6).strokeColor('#888').stroke();
      doc.font('Helvetica').fontSize(8.5).fillColor('black').text(label, 36, top + 7, { width: labelW - 6 });
      for (let h = 1; h < hours; h++) {
        const x = gx + (gw * h) / hours;
        doc.moveTo(x, top).lineTo(x, top + rowH).lineWidth(0.3).strokeColor('#bbb').stroke();
        for (const q of [0.25, 0.5, 0.75]) {
          const qx = gx + (gw * (h - 1 + q)) / hours;
          doc.moveTo(qx, top + rowH - (q === 0.5 ? 8 : 4)).lineTo(qx, top + rowH).lineWidth(0.3).strokeColor('#ccc').stroke();
        }
      }
    });
    const totals = rowMinutes(day, until);
    ROWS.forEach(([status], r) => {
      doc.font('Helvetica-Bold').fontSize(9).fillColor('black').text(hmm(totals[status] ?? 0), gx + gw + 4, gridTop + r * rowH + 7, { width: totalW - 4, align: 'right' });
    });
    const sum = Object.values(totals).reduce((a, b) => a + b, 0);
    doc.font('Helvetica').fontSize(7.5).text(`Total ${hmm(sum)}`, gx + gw + 4, gridTop + 4 * rowH + 3, { width: totalW - 4, align: 'right' });
    // Violations: red bands across the grid where driving went past a limit.
    for (const v of day.violations) {
      const x0 = Math.max(gx, xAt(v.start));
      const x1 = Math.min(gx + gw, Math.max(xAt(v.end), x0 + 1.5));
      doc.rect(x0, gridTop - 2, x1 - x0, 4 * rowH + 4).fillOpacity(0.18).fill('#d00').fillOpacity(1);
    }
    // The line through the rows.
    const yMid = (r: number) => gridTop + r * rowH + rowH / 2;
    let prev: { x: number; r: number } | null = null;
    const first = day.events[0];
    if (!first || Date.parse(first.start) > start) {
      const end = first ? first.start : until;
      doc.moveTo(gx, yMid(0)).lineTo(xAt(end), yMid(0)).lineWidth(1.6).strokeColor('black').stroke();
      prev = { x: xAt(end), r: 0 };
    }
    for (const e of day.events) {
      const r = rowOf(e.status);
      const x0 = xAt(e.start);
      const x1 = xAt(e.end);
      if (prev && prev.r !== r) doc.moveTo(x0, yMid(prev.r)).lineTo(x0, yMid(r)).lineWidth(1.6).strokeColor('black').stroke();
      doc.moveTo(x0, yMid(r)).lineTo(x1, yMid(r)).lineWidth(1.6).strokeColor('black').stroke();
      prev = { x: x1, r };
    }

    // Remarks, violations, certification, recap.
    let ty = gridTop + 4 * rowH + 18;
    const heading = (text: string) => {
      doc.font('Helvetica-Bold').fontSize(9.5).fillColor('black').text(text, 36, ty);
      ty = doc.y + 2;
    };
    const line = (text: string, color = 'black') => {
      doc.font('Helvetica').fontSize(8).fillColor(color).text(text, 44, ty, { width: W - 8 });
      ty = doc.y + 1;
    };
    heading('Remarks');
    if (day.events.length === 0) line('No change of duty status this day.');
    for (const e of day.events) {
      const where = e.location ?? (e.latitude !== null ? `${e.latitude.toFixed(4)}, ${e.longitude!.toFixed(4)}` : 'location not recorded');
      const extra = [e.note, e.annotation ? `annotation: “${e.annotation}”` : null].filter(Boolean).join(' — ');
      line(`${e.continued ? `(continued from the day before) ${clock(e.start, zone)}` : clock(e.start, zone)}  ${STATUS_WORDS[e.status] ?? e.status}, ${where} · ${ORIGIN_WORDS[e.origin] ?? e.origin}${extra ? ` — ${extra}` : ''}`);
    }
    ty += 4;
    heading('Violations');
    if (day.violations.length === 0) line('None.');
    for (const v of day.violations) line(`${VIOLATION_WORDS[v.type] ?? v.type}: ${clock(v.start, zone)} to ${clock(v.end, zone)} (${hmm(Math.round(v.overHours * 60))} past the limit) — ${v.rule}`, '#a00');
    ty += 4;
    heading('Certification');
    line(
      day.certification.certified
        ? `Certified by the driver ${local(day.certification.certifiedAt!, zone, { month: 'short', day: 'numeric', hour: '2-digit', minute: '2-digit', hourCycle: 'h23', timeZoneName: 'short' })}${day.certification.certifications > 1 ? ` (certified ${day.certification.certifications} times)` : ''}${day.certification.recertificationRequired ? ' — corrected since: recertification required' : ''}: “I hereby certify that my data entries and my record of duty status for this 24-hour period are true and correct.”`
        : 'Not certified by the driver.',
      day.certification.certified && !day.certification.recertificationRequired ? 'black' : '#a00',
    );
    if (day.pendingEditRequests > 0) line(`${day.pendingEditRequests} correction request${day.pendingEditRequests === 1 ? '' : 's'} waiting for the driver.`, '#a00');
    ty += 4;
    heading(`Recap (${day.recap.cycleHours} hours / ${day.recap.cycleDays} days)`);
    line(
      `On duty today ${hmm(Math.round(day.recap.onDutyToday * 60))} · on duty the last ${day.recap.cycleDays} days including today ${hmm(Math.round(day.recap.onDutyCycleDays * 60))} · available tomorrow ${hmm(Math.round(day.recap.availableTomorrow * 60))}`,
    );
    doc.font('Helvetica').fontSize(7).fillColor('#666').text(`Printed ${clock(now.toISOString(), zone)} on ${local(now.toISOString(), zone, { month: 'short', day: 'numeric', year: 'numeric' })}. Every change to this record is kept with who made it, when and why.`, 36, doc.page.height - 30, { lineBreak: false });
  }
  doc.end();
  return done;
}
