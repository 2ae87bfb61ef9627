import { describe, expect, it } from 'vitest';
import { exceptionCodes, isoOrNull, mainReference, mapShipmentStatus, predictedArrival } from './mapping.js';
import type { P44ShipmentStatus } from './sandbox.js';

describe('project44 mapping', () => {
  it('reads project44 times with offsets (-0500 or -05:00) as UTC ISO; rubbish is null', () => {
    expect(isoOrNull('2023-12-12T00:48:02-0500')).toBe('2023-12-12T05:48:02.000Z');
    expect(isoOrNull('2023-12-12T00:48:02-05:00')).toBe('2023-12-12T05:48:02.000Z');
    expect(isoOrNull('not a time')).toBeNull();
    expect(isoOrNull(undefined)).toBeNull();
  });

  it('takes the order number as the main reference, else the bill of lading, else any', () => {
    expect(mainReference([{ type: 'BILL_OF_LADING', value: 'B1' }, { type: 'ORDER', value: 'O1' }])).toBe('O1');
    expect(mainReference([{ type: 'PRO', value: 'P1' }, { type: 'BILL_OF_LADING', value: 'B1' }])).toBe('B1');
    expect(mainReference([{ type: 'PRO', value: ' P1 ' }])).toBe('P1');
    expect(mainReference([])).toBeNull();
  });

  it('predicts from the window start (its end without a start); reached stops predict nothing', () => {
    const est = { estimatedArrivalWindow: { startDateTime: '2026-01-01T10:00:00Z', endDateTime: '2026-01-01T11:00:00Z' }, lastCalculatedDateTime: '2026-01-01T08:00:00Z' };
    expect(predictedArrival({ stopNumber: 2, statusCode: 'EN_ROUTE', arrivalEstimate: est })).toEqual({ predictedArrival: '2026-01-01T10:00:00.000Z', estimatedAt: '2026-01-01T08:00:00.000Z' });
    expect(predictedArrival({ stopNumber: 2, arrivalEstimate: { estimatedArrivalWindow: { endDateTime: '2026-01-01T11:00:00Z' } } })).toEqual({ predictedArrival: '2026-01-01T11:00:00.000Z', estimatedAt: null });
    expect(predictedArrival({ stopNumber: 1, statusCode: 'ARRIVED', arrivalEstimate: est }).predictedArrival).toBeNull();
    expect(predictedArrival({ stopNumber: 1, statusCode: 'DEPARTED', arrivalEstimate: est }).predictedArrival).toBeNull();
  });

  it('exceptions: active ones by reason (else category) and exceptional status reasons, sorted, once each', () => {
    const status = {
      shipment: { id: 's', carrierIdentifier: { type: 'SCAC', value: 'X' }, shipmentIdentifiers: [], shipmentStops: [] },
      latestStatusUpdate: { statusCode: 'COMPLETED', statusReason: { code: 'TIMED_OUT' } },
      exceptions: [
        { category: 'RUNNING_LATE', status: 'ACTIVE' },
        { category: 'HOLD', reason: 'REFUSED_DELIVERY' },
        { category: 'DWELL', status: 'RESOLVED' },
        { category: 'RUNNING_LATE', status: 'ACTIVE' },
      ],
    } satisfies P44ShipmentStatus;
    expect(exceptionCodes(status)).toEqual(['REFUSED_DELIVERY', 'RUNNING_LATE', 'TIMED_OUT']);
    expect(exceptionCodes({ ...status, latestStatusUpdate: { statusCode: 'IN_TRANSIT', statusReason: { code: 'IDLE' } }, exceptions: [] })).toEqual([]);
  });

  it('a shipment without an id is refused (the adapter makes it a VENDOR_ERROR)', () => {
    expect(() => mapShipmentStatus({ shipment: {} } as never)).toThrow(TypeError);
  });
});
