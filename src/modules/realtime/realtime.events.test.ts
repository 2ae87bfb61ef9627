import { describe, expect, it } from 'vitest';
import { parseStreamEvent, socketMessage, sseMessage, visibleTo } from './realtime.events.js';

const event = (type: string, payload: Record<string, unknown>) => ({ seq: 5, tenantId: 'tnt_a', type, payload });

describe('realtime event mapping', () => {
  it('names alert events as the spec does on each channel, and leaves the others off the SSE alert stream', () => {
    expect(sseMessage(event('alert.created', { id: 'alt_1', driverId: 'drv_1' }))).toEqual({ seq: 5, tenantId: 'tnt_a', driverId: 'drv_1', name: 'alert', data: { id: 'alt_1', driverId: 'drv_1' } });
    expect(sseMessage(event('alert.updated', { id: 'alt_1' }))?.name).toBe('alert_updated');
    expect(sseMessage(event('alert.resolved', { id: 'alt_1' }))?.name).toBe('alert_resolved');
    expect(sseMessage(event('route.activated', { planId: 'rte_1' }))).toBeNull();
    expect(sseMessage(event('driver.status_changed', {}))).toBeNull();
    expect(socketMessage(event('alert.created', { id: 'alt_1' }))?.name).toBe('alert:new');
    expect(socketMessage(event('alert.updated', { id: 'alt_1' }))?.name).toBe('alert:updated');
    expect(socketMessage(event('alert.resolved', { id: 'alt_1' }))?.name).toBe('alert:resolved');
    expect(socketMessage(event('load.status_changed', {}))).toBeNull();
  });

  it('route:updated carries planId, the status the route is left in, and the event that caused it', () => {
    expect(socketMessage(event('route.planned', { planId: 'rte_1', driverId: 'drv_1' }))).toMatchObject({ name: 'route:updated', driverId: 'drv_1', data: { planId: 'rte_1', status: 'PLANNED', event: 'route.planned' } });
    expect(socketMessage(event('route.activated', { planId: 'rte_1', status: 'ACTIVE' }))?.data).toMatchObject({ status: 'ACTIVE', event: 'route.activated' });
    expect(socketMessage(event('route.completed', { planId: 'rte_1' }))?.data).toMatchObject({ status: 'COMPLETED' });
    expect(socketMessage(event('route.cancelled', { planId: 'rte_1', reason: 'r' }))?.data).toMatchObject({ status: 'CANCELLED', reason: 'r' });
  });

  it('shows a message to its own tenant only, and to a DRIVER user only when it is about their driver', () => {
    const m = { tenantId: 'tnt_a', driverId: 'drv_1' };
    expect(visibleTo(m, { tenantId: 'tnt_a', driverScope: undefined })).toBe(true);
    expect(visibleTo(m, { tenantId: 'tnt_b', driverScope: undefined })).toBe(false);
    expect(visibleTo(m, { tenantId: 'tnt_a', driverScope: 'drv_1' })).toBe(true);
    expect(visibleTo(m, { tenantId: 'tnt_a', driverScope: 'drv_2' })).toBe(false);
    expect(visibleTo(m, { tenantId: 'tnt_a', driverScope: null })).toBe(false);
    expect(visibleTo({ tenantId: 'tnt_a', driverId: null }, { tenantId: 'tnt_a', driverScope: null })).toBe(false);
    expect(visibleTo({ tenantId: 'tnt_b', driverId: 'drv_1' }, { tenantId: 'tnt_a', driverScope: 'drv_1' })).toBe(false);
  });

  it('ignores broadcast payloads that are not stream events', () => {
    expect(parseStreamEvent('not json')).toBeNull();
    expect(parseStreamEvent('{"seq":"1","tenantId":"t","type":"x","payload":{}}')).toBeNull();
    expect(parseStreamEvent('{"seq":1,"tenantId":"t","type":"x","payload":null}')).toBeNull();
    expect(parseStreamEvent('{"seq":1,"tenantId":"t","type":"x","payload":{}}')).toMatchObject({ seq: 1 });
  });
});
