import type { Deps } from '../../deps.js';
import { emitEvent } from '../../db/outbox.js';
import { DomainError, invalidState, isUniqueViolation, notFound, type ErrorDetail } from '../../lib/errors.js';
import { newId } from '../../lib/ids.js';
import type { TenantContext } from '../../plugins/context.js';
import { findLoad, insertLoad, listLoads, setLoadStatus, updateLoadFields, type LoadFields, type LoadRecord, type LoadStatus } from './loads.repository.js';

/** The load lifecycle: forward one step at a time, or cancelled from any state that is not final. */
export const LOAD_TRANSITIONS: Record<LoadStatus, readonly LoadStatus[]> = {
  PENDING: ['ASSIGNED', 'CANCELLED'],
  ASSIGNED: ['IN_TRANSIT', 'CANCELLED'],
  IN_TRANSIT: ['DELIVERED', 'CANCELLED'],
  DELIVERED: [],
  CANCELLED: [],
};

export const MANUAL_SOURCE = 'MANUAL';

export type CreateLoadInput = Pick<LoadFields, 'referenceNumber'> & { [K in Exclude<keyof LoadFields, 'referenceNumber'>]?: LoadFields[K] | null };
export type UpdateLoadInput = Partial<CreateLoadInput>;

const OPTIONAL_TEXT = ['customer', 'originAddress', 'destinationAddress', 'commodity', 'externalId'] as const;
const TIMESTAMPS = ['scheduledPickup', 'scheduledDelivery'] as const;

const validation = (details: ErrorDetail[]) => new DomainError('VALIDATION', 'Validation failed', details);

/** Trims text (blank optional text becomes null) and brings timestamps to canonical UTC ISO form. */
function normalize<T extends UpdateLoadInput>(f: T): T {
  const out: Record<string, unknown> = { ...f };
  if (typeof out.referenceNumber === 'string') out.referenceNumber = out.referenceNumber.trim();
  for (const key of OPTIONAL_TEXT) {
    const v = out[key];
    if (typeof v === 'string') out[key] = v.trim() === '' ? null : v.trim();
  }
  for (const key of TIMESTAMPS) {
    const v = out[key];
    if (typeof v !== 'string') continue;
    const ms = Date.parse(v);
    // The schema's date-time format admits a few forms (leap seconds) that Date cannot represent.
    if (Number.isNaN(ms)) throw validation([{ field: `body.${key}`, message: 'is not a valid timestamp' }]);
    out[key] = new Date(ms).toISOString();
  }
  return out as T;
}

function checkSchedule(pickup: string | null | undefined, delivery: string | null | undefined): void {
  if (pickup && delivery && Date.parse(delivery) < Date.parse(pickup)) {
    throw validation([{ field: 'body.scheduledDelivery', message: 'must not be before scheduledPickup' }]);
  }
}

function duplicate(err: unknown, f: UpdateLoadInput): DomainError | null {
  if (isUniqueViolation(err, 'loads_reference_key')) {
    return new DomainError('CONFLICT', `A load with reference number ${String(f.referenceNumber)} already exists in this organization`);
  }
  if (isUniqueViolation(err, 'loads_external_key')) return new DomainError('CONFLICT', `A load with external id ${String(f.externalId)} already exists in this organization`);
  return null;
}

export function loadsService(deps: Deps) {
  const { db, clock } = deps;

  return {
    async create(ctx: TenantContext, input: CreateLoadInput): Promise<LoadRecord> {
      const n = normalize(input);
      const f: LoadFields = {
        referenceNumber: n.referenceNumber,
        customer: n.customer ?? null,
        originAddress: n.originAddress ?? null,
        destinationAddress: n.destinationAddress ?? null,
        scheduledPickup: n.scheduledPickup ?? null,
        scheduledDelivery: n.scheduledDelivery ?? null,
        weight: n.weight ?? null,
        commodity: n.commodity ?? null,
        externalId: n.externalId ?? null,
      };
      checkSchedule(f.scheduledPickup, f.scheduledDelivery);
      try {
        return await db.tenant(ctx.tenantId, (tx) => insertLoad(tx, ctx.tenantId, newId('load'), f, MANUAL_SOURCE, clock.now()));
      } catch (err) {
        throw duplicate(err, f) ?? err;
      }
    },

    async list(ctx: TenantContext, q: { status?: LoadStatus; search?: string; page: number; pageSize: number }) {
      const filter = { status: q.status, search: q.search?.trim() || undefined };
      const { data, total } = await db.tenant(ctx.tenantId, (tx) => listLoads(tx, ctx.tenantId, filter, q.page, q.pageSize));
      return { data, total, page: q.page, pageSize: q.pageSize };
    },

    async get(ctx: TenantContext, id: string): Promise<LoadRecord> {
      const l = await db.tenant(ctx.tenantId, (tx) => findLoad(tx, ctx.tenantId, id));
      if (!l) throw notFound('Load');
      return l;
    },

    /** Edits the descriptive fields; the status moves only through changeStatus. */
    async update(ctx: TenantContext, id: string, changes: UpdateLoadInput): Promise<LoadRecord> {
      const f = normalize(changes);
      try {
        return await db.tenant(ctx.tenantId, async (tx) => {
          const current = await findLoad(tx, ctx.tenantId, id, true);
          if (!current) throw notFound('Load');
          const pickup = f.scheduledPickup !== undefined ? f.scheduledPickup : current.scheduledPickup;
          const delivery = f.scheduledDelivery !== undefined ? f.scheduledDelivery : current.scheduledDelivery;
          checkSchedule(pickup, delivery);
          return (await updateLoadFields(tx, ctx.tenantId, id, f as Partial<LoadFields>, clock.now()))!;
        });
      } catch (err) {
        throw duplicate(err, f) ?? err;
      }
    },

    /** Moves the load along its lifecycle and writes load.status_changed to the outbox in the same transaction. */
    async changeStatus(ctx: TenantContext, id: string, to: LoadStatus, note?: string): Promise<LoadRecord> {
      const now = clock.now();
      return db.tenant(ctx.tenantId, async (tx) => {
        const current = await findLoad(tx, ctx.tenantId, id, true);
        if (!current) throw notFound('Load');
        if (current.status === to) throw invalidState(`Load is already ${to}`);
        if (!LOAD_TRANSITIONS[current.status].includes(to)) {
          const allowed = LOAD_TRANSITIONS[current.status];
          throw invalidState(
            `Cannot change load status from ${current.status} to ${to}` + (allowed.length ? ` (allowed: ${allowed.join(', ')})` : `: ${current.status} is final`),
          );
        }
        const updated = await setLoadStatus(tx, ctx.tenantId, id, to, now);
        await emitEvent(
          tx,
          ctx.tenantId,
          'load.status_changed',
          {
            loadId: id,
            referenceNumber: current.referenceNumber,
            oldStatus: current.status,
            newStatus: to,
            changedBy: ctx.userId,
            changedAt: now.toISOString(),
            note: note?.trim() || null,
          },
          now,
        );
        return updated;
      });
    },
  };
}
