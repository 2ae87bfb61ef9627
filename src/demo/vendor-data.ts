/**
 * The vendor sandboxes' data rewritten for the demo fleet, so that each integration shows something
 * about our trucks: a winter storm ahead of T-104 and a wind advisory on T-105's road (OpenWeather and
 * NWS alike), and a project44 shipment for the load with a delivery appointment, predicted to arrive
 * after it. (Samsara's fleet becomes our ELD trucks in eld-feed.ts.)
 */
import { cumulativeMiles, pointAlongPath, type LatLng } from '../domain/geo/index.js';
import type { Segment } from '../domain/planning/types.js';
import type { NwsSandboxState } from '../adapters/integrations/nws/sandbox.js';
import type { OpenWeatherSandboxState } from '../adapters/integrations/openweather/sandbox.js';
import type { P44ShipmentStatus, Project44SandboxState } from '../adapters/integrations/project44/sandbox.js';
import { HOUR, type Truck } from './fleet.js';
import { offlineGeocoder } from '../infra/geocoding/index.js';

const MINUTE = 60_000;

/** The route's planned path: its drives joined end to end. */
export function planPath(segments: readonly Segment[]): LatLng[] {
  const drives = segments.flatMap((s) => (s.type === 'drive' ? [s] : []));
  if (drives.length === 0) return [];
  return [drives[0]!.from, ...drives.map((d) => d.to)];
}

/** The point `fraction` of the way along the route's planned path. */
export function pointAlongPlan(segments: readonly Segment[], fraction: number): LatLng {
  const path = planPath(segments);
  const cum = cumulativeMiles(path);
  return pointAlongPath(path, cum[cum.length - 1]! * fraction, cum).point;
}

/** A weather alert the demo puts on a truck's route, for both weather vendors. */
export interface DemoWeatherAlert {
  unit: string;
  /** Where on the route (0 = origin, 1 = destination). */
  fraction: number;
  radiusMiles: number;
  event: string;
  /** NWS's CAP severity (OpenWeather's derives from the event's name: a Warning is severe, an Advisory minor). */
  severity: 'Severe' | 'Minor';
  headline: string;
  description: string;
}

/** Sample points along a route are at most 50 miles apart: a 35-mile circle on the path holds one. */
export const DEMO_WEATHER: DemoWeatherAlert[] = [
  {
    unit: 'T-104',
    fraction: 0.7,
    radiusMiles: 35,
    event: 'Winter Storm Warning',
    severity: 'Severe',
    headline: 'Winter Storm Warning in effect until tomorrow evening',
    description: 'Heavy snow expected. Total snow accumulations of 8 to 14 inches, winds gusting as high as 50 mph. Travel could be very difficult to impossible.',
  },
  {
    unit: 'T-105',
    fraction: 0.6,
    radiusMiles: 35,
    event: 'Wind Advisory',
    severity: 'Minor',
    headline: 'Wind Advisory in effect until this evening',
    description: 'West winds 25 to 35 mph with gusts up to 50 mph. Gusty winds will make driving difficult, especially for high-profile vehicles.',
  },
];

export interface PlacedWeatherAlert extends DemoWeatherAlert {
  centre: LatLng;
}

/** The demo's weather alerts, placed on the trucks' current routes. */
export function placeWeather(trucks: readonly Truck[]): PlacedWeatherAlert[] {
  return DEMO_WEATHER.flatMap((a) => {
    const truck = trucks.find((t) => t.spec.unit === a.unit);
    return truck ? [{ ...a, centre: pointAlongPlan(truck.segments, a.fraction) }] : [];
  });
}

/** From an hour ago until a day from `now`: in effect for the whole demo. */
const alertTimes = (now: number) => ({ start: now - HOUR, end: now + 24 * HOUR });

export function weatherOnOpenWeather(state: OpenWeatherSandboxState, alerts: readonly PlacedWeatherAlert[], now: number): void {
  const { start, end } = alertTimes(now);
  state.zones = alerts.map((a) => ({
    latitude: a.centre.latitude,
    longitude: a.centre.longitude,
    radiusMiles: a.radiusMiles,
    alerts: [{ sender_name: 'NWS Demo Weather Office', event: a.event, start: Math.floor(start / 1000), end: Math.floor(end / 1000), description: a.description, tags: [a.severity === 'Severe' ? 'Snow/Ice' : 'Wind'] }],
  }));
}

export function weatherOnNws(state: NwsSandboxState, alerts: readonly PlacedWeatherAlert[], now: number): void {
  const { start, end } = alertTimes(now);
  state.zones = alerts.map((a, i) => ({
    latitude: a.centre.latitude,
    longitude: a.centre.longitude,
    radiusMiles: a.radiusMiles,
    alerts: [
      {
        id: `urn:oid:2.49.0.1.840.0.demo.${i + 1}`,
        event: a.event,
        severity: a.severity,
        onset: new Date(start).toISOString(),
        ends: new Date(end).toISOString(),
        expires: new Date(end).toISOString(),
        headline: a.headline,
        description: a.description,
        areaDesc: `Along ${a.unit}'s route`,
      },
    ],
  }));
}

/** The truck whose load has a delivery appointment (the demo's DEMO-1003), if any. */
export function appointmentTruck(trucks: readonly Truck[]): { truck: Truck; stopIndex: number; latest: number } | undefined {
  for (const truck of trucks) {
    if (truck.loadReference === null || truck.spec.planned) continue;
    const stopIndex = truck.stops.findIndex((s) => s.appointment?.latest);
    if (stopIndex >= 0) return { truck, stopIndex, latest: Date.parse(truck.stops[stopIndex]!.appointment!.latest!) };
  }
  return undefined;
}

/** How late project44 predicts the demo's appointment load. */
export const PREDICTED_LATE_MINUTES = 45;

/**
 * project44 tracks the appointment load only: one shipment with the load's reference number, in transit,
 * its delivery predicted PREDICTED_LATE_MINUTES after the appointment's latest time.
 */
export function lateShipmentOnProject44(state: Project44SandboxState, trucks: readonly Truck[], now: number): void {
  const found = appointmentTruck(trucks);
  if (!found) {
    state.shipments = [];
    return;
  }
  const { truck, stopIndex, latest } = found;
  const iso = (ms: number) => new Date(ms).toISOString();
  const address = (name: string) => {
    const [city, st] = name.split(',').map((s) => s.trim());
    return { address: { city, state: st, country: 'US' }, contact: { companyName: `${city} dock` } };
  };
  const first = truck.stops[0]!;
  const shipment: P44ShipmentStatus = {
    shipment: {
      id: `P44-${truck.loadReference!}`,
      carrierIdentifier: { type: 'SCAC', value: 'DEMO' },
      shipmentIdentifiers: [{ type: 'ORDER', value: truck.loadReference! }],
      shipmentStops: truck.stops.map((s, i) => ({
        stopNumber: i + 1,
        ...(s.appointment?.latest ? { appointmentWindow: { ...(s.appointment.earliest ? { startDateTime: s.appointment.earliest } : {}), endDateTime: s.appointment.latest } } : {}),
        location: address(s.name),
      })),
      equipmentIdentifiers: [{ type: 'VEHICLE_ID', value: truck.spec.unit }],
    },
    latestStatusUpdate: { timestamp: iso(now - MINUTE), statusCode: 'IN_TRANSIT', statusReason: { code: 'IN_MOTION' }, geoCoordinates: { latitude: first.latitude, longitude: first.longitude } },
    latestStopStatuses: truck.stops.map((_s, i) =>
      i < stopIndex
        ? { stopNumber: i + 1, statusCode: 'DEPARTED', arrivalCode: 'ON_TIME' }
        : {
            stopNumber: i + 1,
            statusCode: 'EN_ROUTE',
            arrivalCode: 'LATE',
            arrivalEstimate: {
              estimatedArrivalWindow: { startDateTime: iso(latest + PREDICTED_LATE_MINUTES * MINUTE), endDateTime: iso(latest + (PREDICTED_LATE_MINUTES + 30) * MINUTE) },
              lastCalculatedDateTime: iso(now - MINUTE),
            },
          },
    ),
    exceptions: [{ namespace: 'P44_DETECTED', category: 'RUNNING_LATE', status: 'ACTIVE' }],
  };
  state.shipments = [shipment];
}

/** A fuel station as the HERE sandbox serves it (the fields the demo sets; HERE's FuelStationType). */
export interface DemoFuelStation {
  id: string;
  name: string;
  brand: string;
  position: LatLng;
  address: { city: string; region: string; country: string };
  open24x7: boolean;
  fuelPrice: { price: number; fuelType: string; unit: string; currency: string; lastUpdateTimestamp: string }[];
}

/** Stations this far apart along each demo route. */
export const STATION_SPACING_MILES = 25;
const BRANDS = ['Redbud Travel Center', 'Prairie Diesel', 'Crossroads Fuel', 'Big Rig Fuel Stop', 'Heartland Truck Plaza'] as const;

const splitName = (name: string) => {
  const i = name.lastIndexOf(', ');
  return i < 0 ? { city: name, region: '' } : { city: name.slice(0, i), region: name.slice(i + 2) };
};

/**
 * Where a station is, from its own coordinates (the gazetteer): the nearest place of any size decides the
 * state it is in (places are a few miles apart, so the nearest one is on the same side of a border but
 * for a few metres of it); the nearest town of 5,000 or more in that state names it, else that place.
 */
export function stationPlace(p: LatLng): { city: string; region: string } {
  const geocoder = offlineGeocoder();
  const any = geocoder.nearestPlace(p, { minPopulation: 0, maxDistanceMiles: 60 });
  const town = geocoder.nearestPlace(p, { maxDistanceMiles: 60 });
  if (any === null) return town ? splitName(town.name) : { city: 'Interstate', region: '' };
  const here = splitName(any.name);
  const named = town ? splitName(town.name) : null;
  return named && named.region === here.region ? named : here;
}

/**
 * Diesel stations every STATION_SPACING_MILES along each demo truck's planned path (the first half a
 * spacing from the origin), priced between $3.39 and $3.63 a gallon, every fourth a discount stop 20
 * cents cheaper; prices updated within the last two hours. The fuel vendor's sandbox serves these
 * instead of its own corridor.
 */
export function stationsAlongRoutes(trucks: readonly Truck[], now: number): DemoFuelStation[] {
  const stations: DemoFuelStation[] = [];
  for (const truck of trucks) {
    const path = planPath(truck.segments);
    if (path.length < 2) continue;
    const cum = cumulativeMiles(path);
    const total = cum[cum.length - 1]!;
    for (let miles = STATION_SPACING_MILES / 2; miles < total; miles += STATION_SPACING_MILES) {
      const i = stations.length;
      const at = pointAlongPath(path, miles, cum).point;
      const position = { latitude: Math.round(at.latitude * 1e5) / 1e5, longitude: Math.round(at.longitude * 1e5) / 1e5 };
      const place = stationPlace(position);
      const price = Math.round((3.39 + ((i * 7) % 9) * 0.03 - (i % 4 === 2 ? 0.2 : 0)) * 1000) / 1000;
      stations.push({
        id: `demo-${truck.spec.unit.toLowerCase()}-${String(Math.round(miles)).padStart(4, '0')}`,
        name: `${BRANDS[i % BRANDS.length]} #${200 + i}`,
        brand: BRANDS[i % BRANDS.length]!,
        position,
        address: { city: place.city, region: place.region, country: 'USA' },
        open24x7: true,
        fuelPrice: [{ price, fuelType: '1', unit: 'gal', currency: 'USD', lastUpdateTimestamp: new Date(now - ((i % 8) + 1) * 15 * MINUTE).toISOString() }],
      });
    }
  }
  return stations;
}
