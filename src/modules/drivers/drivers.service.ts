import type { HosNow } from '../../domain/hos/index.js';
import { clockSourceOf, currentHoursOf, disagreementOf, hosNowOfRow, hoursSourceParams } from '../hos/hos.service.js';
import { ruleSetOf } from '../hos/hos.repository.js';
import type { Deps } from '../../deps.js';
import { emitEvent } from '../../db/outbox.js';
import { timeZoneAt } from '../../domain/planning/local-time.js';
import { DomainError, invalid, invalidState, isUniqueViolation, notFound } from '../../lib/errors.js';
import { newId } from '../../lib/ids.js';
import { LICENSE_REGIONS } from '../../lib/regions.js';
import type { TenantContext } from '../../plugins/context.js';
import type { PlanningPorts } from '../routes/planning-ports.js';
import { geocodeProblem } from '../routes/stops.js';
import { findKnownLocation, reportLocation, type KnownLocation } from './driver-locations.js';
import {
  findDriver,
  insertDriver,
  listDrivers,
  setDriverStatus,
  updateDriverFields,
  type DriverFields,
  type DriverRecord,
  type DriverStatus,
  type HomeTerminal,
} from './drivers.repository.js';

/** A home terminal as given: an address to geocode, or coordinates; a name of its own or the place's. */
export interface HomeTerminalInput {
  name?: string;
  address?: string;
  latitude?: number;
  longitude?: number;
}

type TextFields = Omit<DriverFields, 'homeTerminal'>;
type CreateInput = Pick<TextFields, 'firstName' | 'lastName' | 'licenseNumber' | 'licenseState'> &
  Partial<Pick<TextFields, 'truckNumber' | 'phoneNumber' | 'email' | 'externalId'>> & { homeTerminal?: HomeTerminalInput };
type UpdateInput = Partial<TextFields> & { homeTerminal?: HomeTerminalInput | null };

/** A location report from the future beyond this (device clocks drift) is refused. */
const FUTURE_TOLERANCE_MS = 60_000;

/**
 * The home terminal's place: the address geocoded offline (a name that several places bear, or none,
 * is a 400 with the candidates, as a plan's stop is), or the coordinates as given; its time zone.
 */
function resolveHomeTerminal(input: HomeTerminalInput, ports: Pick<PlanningPorts, 'geocode' | 'nameNear'>): HomeTerminal {
  const field = 'body.homeTerminal';
  const hasPoint = input.latitude !== undefined || input.longitude !== undefined;
  if (hasPoint && (input.latitude === undefined || input.longitude === undefined)) {
    throw invalid('Validation failed', [{ field: `${field}.latitude`, message: 'latitude and longitude go together' }]);
  }
  if (hasPoint === (input.address !== undefined)) {
    throw invalid('Validation failed', [{ field, message: 'give an address, or latitude and longitude (one of the two)' }]);
  }
  let point: { latitude: number; longitude: number };
  let place: string;
  if (input.address !== undefined) {
    const answer = ports.geocode(input.address);
    if (answer.kind !== 'found') throw invalid('Validation failed', [geocodeProblem(`${field}.address`, 'home terminal', answer)]);
    point = { latitude: answer.result.latitude, longitude: answer.result.longitude };
    place = answer.result.name;
  } else {
    point = { latitude: input.latitude!, longitude: input.longitude! };
    place = ports.nameNear(point);
  }
  return { name: input.name?.trim() || place, address: input.address?.trim() ?? null, ...point, timeZone: timeZoneAt(point) };
}

function normalize<T extends Partial<TextFields>>(f: T): T {
  const out = { ...f };
  for (const key of Object.keys(out) as (keyof TextFields)[]) {
    const v = out[key];
    if (typeof v === 'string') (out as Record<string, unknown>)[key] = v.trim() === '' ? null : v.trim();
  }
  if (typeof out.licenseState === 'string') {
    out.licenseState = out.licenseState.toUpperCase();
    if (!(LICENSE_REGIONS as readonly string[]).includes(out.licenseState)) {
      throw new DomainError('VALIDATION', 'Validation failed', [{ field: 'body.licenseState', message: `${out.licenseState} is not a US state or Canadian province code` }]);
    }
  }
  if (typeof out.licenseNumber === 'string') out.licenseNumber = out.licenseNumber.toUpperCase();
  return out;
}

const duplicateLicense = (n: string) => new DomainError('CONFLICT', `A driver with license number ${n} already exists in this organization`);
const duplicateExternalId = (n: string) => new DomainError('CONFLICT', `A driver with external id ${n} already exists in this organization`);

/** A DRIVER user sees only the driver profile linked to them; everyone else in the tenant sees all. */
function visible(ctx: TenantContext, d: DriverRecord | null): DriverRecord | null {
  if (!d) return null;
  return ctx.role === 'DRIVER' && d.userId !== ctx.userId ? null : d;
}

const round2 = (n: number) => Math.round(n * 100) / 100;

/** A Drivers list row's hours: the HOS record's figures, rounded the same way. */
function listHours(now: HosNow) {
  const c = now.clocks;
  return {
    currentHoursDriven: round2(c.hoursDriven),
    currentOnDutyTime: round2(c.onDutyHours),
    driveTimeRemaining: round2(c.driveRemaining),
    dutyTimeRemaining: round2(c.windowRemaining),
    currentDutyStatus: c.dutyStatus,
    clockSource: clockSourceOf(now),
    disagreement: disagreementOf(now),
  };
}

export function driversService(deps: Deps, ports: Pick<PlanningPorts, 'geocode' | 'nameNear'>) {
  const { db, clock } = deps;

  /** The API's view of a known location: with the name of the place. */
  const located = (l: KnownLocation) => ({
    latitude: l.latitude,
    longitude: l.longitude,
    name: l.name ?? ports.nameNear(l),
    recordedAt: new Date(l.at).toISOString(),
    timeZone: timeZoneAt(l),
    source: l.source,
    routeId: l.routeId,
  });

  async function changeStatus(ctx: TenantContext, id: string, to: DriverStatus) {
    const now = clock.now();
    return db.tenant(ctx.tenantId, async (tx) => {
      const current = await findDriver(tx, ctx.tenantId, id, true);
      if (!current) throw notFound('Driver');
      if (current.status === to) throw invalidState(`Driver is already ${to}`);
      const updated = await setDriverStatus(tx, ctx.tenantId, id, to, now);
      await emitEvent(
        tx,
        ctx.tenantId,
        'driver.status_changed',
        { driverId: id, oldStatus: current.status, newStatus: to, changedBy: ctx.userId, changedAt: now.toISOString() },
        now,
      );
      return updated;
    });
  }

  return {
    async create(ctx: TenantContext, input: CreateInput) {
      const { homeTerminal, ...text } = input;
      const f = { ...normalize({ truckNumber: null, phoneNumber: null, email: null, externalId: null, ...text }), homeTerminal: homeTerminal ? resolveHomeTerminal(homeTerminal, ports) : null };
      try {
        const d = await db.tenant(ctx.tenantId, (tx) => insertDriver(tx, ctx.tenantId, newId('driver'), f, clock.now()));
        return { ...d, lastKnownLocation: null };
      } catch (err) {
        if (isUniqueViolation(err, 'drivers_license_key')) throw duplicateLicense(f.licenseNumber);
        if (isUniqueViolation(err, 'drivers_external_key')) throw duplicateExternalId(String(f.externalId));
        throw err;
      }
    },

    async list(ctx: TenantContext, q: { status?: DriverStatus; search?: string; page: number; pageSize: number }) {
      const filter = { status: q.status, search: q.search?.trim() || undefined, userId: ctx.role === 'DRIVER' ? ctx.userId : undefined };
      const now = clock.now().getTime();
      const page = await db.tenant(ctx.tenantId, (tx) => listDrivers(tx, ctx.tenantId, filter, q.page, q.pageSize, hoursSourceParams(now)));
      // Each row's hours are the truth the driver's page shows (hosNow), not a figure cached at the last log entry.
      const rules = ruleSetOf(page.hos);
      const data = page.data.map((d) => ({ ...d.driver, ...listHours(hosNowOfRow(rules, d.hours, now)) }));
      const total = page.total;
      return { data, total, page: q.page, pageSize: q.pageSize };
    },

    async get(ctx: TenantContext, id: string) {
      const now = clock.now().getTime();
      const found = await db.tenant(ctx.tenantId, async (tx) => {
        const d = visible(ctx, await findDriver(tx, ctx.tenantId, id));
        return d ? { d, known: await findKnownLocation(tx, ctx.tenantId, id), hours: (await currentHoursOf(tx, ctx.tenantId, [id], now)).get(id)! } : null;
      });
      if (!found) throw notFound('Driver');
      const c = found.hours.clocks;
      return {
        ...found.d,
        // The same clocks as GET /drivers/{id}/hos.
        currentHoursDriven: round2(c.hoursDriven),
        currentOnDutyTime: round2(c.onDutyHours),
        currentCycleUsed: round2(c.cycleHoursUsed),
        lastKnownLocation: found.known ? located(found.known) : null,
      };
    },

    /**
     * A location reported for the driver without a route (a driver app, a yard check-in, telematics):
     * kept when it is the newest known, so that dispatch starts them there. The driver themselves, or
     * anyone who may record their duty status.
     */
    async reportLocation(ctx: TenantContext, driverId: string, body: { latitude: number; longitude: number; recordedAt?: string }) {
      const now = clock.now();
      const recordedAt = body.recordedAt ? new Date(body.recordedAt) : now;
      if (Number.isNaN(recordedAt.getTime())) throw invalid('Validation failed', [{ field: 'body.recordedAt', message: 'is not a date-time that can be represented' }]);
      if (recordedAt.getTime() > now.getTime() + FUTURE_TOLERANCE_MS) throw invalid('Validation failed', [{ field: 'body.recordedAt', message: 'must not be in the future' }]);
      const result = await db.tenant(ctx.tenantId, async (tx) => {
        if (!visible(ctx, await findDriver(tx, ctx.tenantId, driverId))) return null;
        const accepted = await reportLocation(
          tx,
          ctx.tenantId,
          { driverId, latitude: body.latitude, longitude: body.longitude, recordedAt, source: ctx.via === 'apiKey' ? 'API_KEY' : ctx.role === 'DRIVER' ? 'DRIVER' : 'USER', reportedBy: ctx.userId },
          now,
        );
        return { accepted, known: (await findKnownLocation(tx, ctx.tenantId, driverId))! };
      });
      if (!result) throw notFound('Driver');
      return { driverId, accepted: result.accepted, lastKnownLocation: located(result.known) };
    },

    async update(ctx: TenantContext, id: string, input: UpdateInput) {
      const { homeTerminal, ...text } = input;
      const f: Partial<DriverFields> = {
        ...normalize(text),
        ...(homeTerminal === undefined ? {} : { homeTerminal: homeTerminal === null ? null : resolveHomeTerminal(homeTerminal, ports) }),
      };
      for (const required of ['firstName', 'lastName', 'licenseNumber', 'licenseState'] as const) {
        if (required in f && f[required] === null) {
          throw new DomainError('VALIDATION', 'Validation failed', [{ field: `body.${required}`, message: 'must not be empty' }]);
        }
      }
      try {
        const d = await db.tenant(ctx.tenantId, (tx) => updateDriverFields(tx, ctx.tenantId, id, f, clock.now()));
        if (!d) throw notFound('Driver');
        return d;
      } catch (err) {
        if (isUniqueViolation(err, 'drivers_license_key')) throw duplicateLicense(String(f.licenseNumber));
        if (isUniqueViolation(err, 'drivers_external_key')) throw duplicateExternalId(String(f.externalId));
        throw err;
      }
    },

    async deactivate(ctx: TenantContext, id: string) {
      const d = await changeStatus(ctx, id, 'INACTIVE');
      return { id: d.id, firstName: d.firstName, lastName: d.lastName, status: d.status, deactivatedAt: d.deactivatedAt! };
    },

    async reactivate(ctx: TenantContext, id: string) {
      const d = await changeStatus(ctx, id, 'ACTIVE');
      return { id: d.id, firstName: d.firstName, lastName: d.lastName, status: d.status, reactivatedAt: d.reactivatedAt! };
    },
  };
}
