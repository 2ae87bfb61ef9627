import type { ClockSnapshot, DutyPeriod, RuleSet } from '../hos/types.js';

export interface Point {
  latitude: number;
  longitude: number;
}

export type StopType = 'ORIGIN' | 'PICKUP' | 'DELIVERY' | 'WAYPOINT';

/**
 * How a stop's place was found. ADDRESS: the street address itself (no offline geocoder places one:
 * reserved for a street-level geocoder); ZIP: a ZIP code's centroid; CITY: a city's centre (also for a
 * street address whose street was not placed); COORDINATES: latitude and longitude given (matched null).
 */
export interface StopResolution extends Point {
  /** The place the text was matched to ("Dallas, TX", "Dallas, TX 75201"); null for coordinates. */
  matched: string | null;
  precision: 'ADDRESS' | 'ZIP' | 'CITY' | 'COORDINATES';
}

/** A stop with resolved coordinates; times in ms since epoch. */
export interface PlanStop extends Point {
  name: string;
  type: StopType;
  appointment?: { earliest?: number; latest?: number };
  dockDurationHours: number;
  /** Pairs a PICKUP with its DELIVERY for stop ordering. */
  shipmentId?: string;
  /** How the stop's place was found (reported with the stop's ETA). */
  resolution?: StopResolution;
}

/** The road (or great-circle) path from one stop to the next. */
export interface PlanLeg {
  distanceMiles: number;
  /** From the leg's first stop to its last; at least two points. */
  geometry: Point[];
}

/** A place of the tenant's own where a rest or fuel stop can be taken. */
export interface RestSite extends Point {
  name: string;
  type: 'TRUCK_STOP' | 'REST_AREA' | 'CUSTOMER' | 'YARD' | 'FUEL_STATION';
  diesel?: boolean;
  parking?: boolean;
  fuelDiscountPerGallon?: number | null;
}

/** A fuel price known at a point near the route. */
export interface FuelPricePoint extends Point {
  name: string;
  pricePerGallon: number;
}

export interface FuelOptions {
  enabled: boolean;
  tankGallons: number;
  mpg: number;
  startingGallons: number;
  /** Prices fuel where no station price is known, and the fuel in the tank at departure (for the cost of the fuel burned). */
  defaultPricePerGallon: number;
  prices: FuelPricePoint[];
}

export interface PlanInput {
  departureTime: number;
  stops: PlanStop[];
  /** legs[i] joins stops[i] to stops[i+1]. */
  legs: PlanLeg[];
  rules: RuleSet;
  /** The driver's duty history before departure (audited with the plan), or a manual snapshot. */
  history: { timeline: DutyPeriod[] } | { snapshot: ClockSnapshot };
  averageSpeedMph: number;
  fuel: FuelOptions;
  restSites: RestSite[];
  /** Names a point for a rest or fuel stop away from known sites ("near Amarillo, TX"). */
  nameNear: (point: Point) => string;
  /**
   * Team driving: two drivers share the truck. `history` above is the first driver's; the second's is
   * here. While one drives the other is in the sleeper berth; the truck stops only for docks, fuel,
   * driver changes and when neither driver may drive. Absent: one driver.
   */
  team?: TeamOptions;
}

export interface TeamOptions {
  /** The two drivers: [the route's driver, the co-driver]; drive segments carry the id of who drives. */
  driverIds: [string, string];
  /** Their names, in the same order: what the plan's sentences (a driver change's reason) say. */
  driverNames: [string, string];
  /** The co-driver's duty history before departure, or a manual snapshot. */
  coDriverHistory: { timeline: DutyPeriod[] } | { snapshot: ClockSnapshot };
}

export interface HosStateAfter {
  hours_driven: number;
  on_duty_hours: number;
  hours_since_break: number;
  drive_hours_remaining: number;
  duty_hours_remaining: number;
  cycle_hours_used: number;
  cycle_hours_remaining: number;
}

interface SegmentBase {
  sequence: number;
  start_time: string;
  end_time: string;
  duration_hours: number;
  hos_state_after: HosStateAfter;
}

export interface NamedPoint extends Point {
  name: string;
}

/**
 * Local time at a segment's place: ISO 8601 with the UTC offset there ("2026-03-02T07:00:00-06:00").
 * The planner always writes the local-time fields; they are optional because plans stored before
 * they existed have none.
 */
interface LocalSpan {
  local_start_time?: string;
  local_end_time?: string;
}

/** A segment at one place: its IANA time zone ("America/Chicago") and local times there. */
interface AtPlace extends LocalSpan {
  time_zone?: string;
}

export type Segment =
  /** A drive: its start in the time zone of `from`, its end in that of `to`. */
  | (SegmentBase &
      LocalSpan & {
        type: 'drive';
        from: NamedPoint & { time_zone?: string };
        to: NamedPoint & { time_zone?: string };
        distance_miles: number;
        /** Who drives it (team plans only; a one-driver plan's driver is the route's). */
        driver_id?: string;
      })
  | (SegmentBase & AtPlace & {
      type: 'rest';
      location: string;
      latitude: number;
      longitude: number;
      rest_type: 'full_rest' | 'partial_rest' | 'break';
      /** A 34-hour restart (rest_type full_rest): the cycle starts over. Absent on plans stored before it. */
      restart?: boolean;
      duty_status: 'OFF_DUTY' | 'SLEEPER_BERTH';
      reason: string;
    })
  | (SegmentBase & AtPlace & { type: 'dock'; location: string; latitude: number; longitude: number; stop_type: StopType; appointment: { earliest: string | null; latest: string | null } | null })
  | (SegmentBase & AtPlace & { type: 'fuel'; location: string; latitude: number; longitude: number; gallons: number; price_per_gallon: number; cost: number })
  | (SegmentBase &
      AtPlace & {
        type: 'wait';
        location: string;
        latitude: number;
        longitude: number;
        reason: string;
        /** A team's driver change: the driver who takes the wheel. */
        driver_id?: string;
      });

export interface StopEta {
  sequence: number;
  name: string;
  type: StopType;
  latitude: number;
  longitude: number;
  arrivalTime: string;
  departureTime: string;
  appointment: { earliest: string | null; latest: string | null } | null;
  /** null without an appointment window; false when the window cannot be met. */
  withinWindow: boolean | null;
  lateByHours: number;
  /** The stop's IANA time zone, and its arrival and departure in local time with the UTC offset (absent on plans stored before). */
  timeZone?: string;
  localArrivalTime?: string;
  localDepartureTime?: string;
  /** How the stop's place was found (absent from plans made before it was recorded). */
  resolution?: StopResolution;
}

/**
 * A plan's durations in whole minutes as its timeline adds them up: each segment measured between its
 * start and its end, each rounded to the nearest minute (half up), so that the parts add up to the totals
 * (the drives to `drive`, every segment to `trip`) and every screen that shows the plan says the same
 * minute. The exact hours are the summary's total…Hours.
 */
export interface PlanMinutes {
  drive: number;
  /** Driving, docks and fuel stops. */
  onDuty: number;
  /** Rests, breaks and waits (a team's driver changes). */
  rest: number;
  /** Departure to arrival. */
  trip: number;
}

export interface PlanSummary {
  totalDistanceMiles: number;
  /** Exact (to 7 decimals, as each segment's duration_hours): the sum of the drive segments. */
  totalDriveHours: number;
  totalOnDutyHours: number;
  totalRestHours: number;
  totalTripHours: number;
  minutes: PlanMinutes;
  restStops: number;
  breaks: number;
  fuelStops: number;
  /** The cost of the fuel the trip burns (fuelBurnedGallons at the tank's running average price). */
  estimatedFuelCost: number;
  /** totalDistanceMiles / mpg. */
  fuelBurnedGallons: number;
  /** Bought at the planned fuel stops. */
  fuelPurchasedGallons: number;
  fuelPurchasedCost: number;
  hosViolations: number;
  appointmentsMissed: number;
}

export interface PlanResult {
  departureTime: string;
  arrivalTime: string;
  summary: PlanSummary;
  segments: Segment[];
  stops: StopEta[];
  /** The plan's own duty timeline (what the auditor replays after the history). */
  timeline: DutyPeriod[];
  /** Team plans: each driver's own duty timeline of the trip ([driver, co-driver]), as each one's log will read. */
  teamTimelines?: [DutyPeriod[], DutyPeriod[]];
  warnings: string[];
}
