/**
 * The trip as one line: each leg's geometry with cumulative miles, so that a position can be found
 * from "miles into the trip", and the tenant's own sites projected onto it.
 */
import { cumulativeMiles, nearestPointOnPath, pointAlongPath } from '../geo/path.js';
import type { PlanLeg, Point, RestSite } from './types.js';

/** A site within reach of the route, with where it lies along the trip. */
export interface SiteOnRoute {
  site: RestSite;
  /** Miles from the start of the trip (in the legs' distance units). */
  tripMiles: number;
  /** How far off the route it lies. */
  offRouteMiles: number;
}

/** Sites farther than this from the route are not worth the detour. */
export const MAX_SITE_OFFSET_MILES = 5;

export class RoutePath {
  /** Trip miles at the start of each leg. */
  readonly legStart: number[];
  readonly totalMiles: number;
  private readonly cumulative: Float64Array[];
  private readonly geometryLength: number[];

  constructor(readonly legs: PlanLeg[]) {
    this.legStart = [];
    let total = 0;
    for (const leg of legs) {
      this.legStart.push(total);
      total += leg.distanceMiles;
    }
    this.totalMiles = total;
    this.cumulative = legs.map((l) => cumulativeMiles(l.geometry));
    // The last cumulative figure is the path's length (the same additions in the same order as
    // pathLengthMiles, so the same number), without measuring every segment twice.
    this.geometryLength = this.cumulative.map((c) => (c.length > 0 ? c[c.length - 1]! : 0));
  }

  /*
   * The last few positions asked for, by exact (leg, miles): the planner asks for the point where the
   * truck stands several times in a row (end of a drive, the rest there, the next drive's start), and
   * each one costs a spherical interpolation.
   */
  private readonly recentLeg = [-1, -1, -1, -1];
  private readonly recentMiles = [NaN, NaN, NaN, NaN];
  private readonly recentPoint: (Point | null)[] = [null, null, null, null];
  private recentNext = 0;

  /**
   * Position after `miles` of leg `leg`; leg distances and geometry lengths may differ (road vs line), so
   * scale. The point may be shared with earlier calls: read it or copy it, never change it.
   */
  pointInLeg(leg: number, miles: number): Point {
    for (let i = 0; i < 4; i++) if (this.recentLeg[i] === leg && this.recentMiles[i] === miles) return this.recentPoint[i]!;
    const l = this.legs[leg]!;
    const fraction = l.distanceMiles > 0 ? Math.min(1, Math.max(0, miles / l.distanceMiles)) : 0;
    const { point } = pointAlongPath(l.geometry, fraction * this.geometryLength[leg]!, this.cumulative[leg]);
    const p = { latitude: point.latitude, longitude: point.longitude };
    const k = this.recentNext;
    this.recentLeg[k] = leg;
    this.recentMiles[k] = miles;
    this.recentPoint[k] = p;
    this.recentNext = (k + 1) % 4;
    return p;
  }

  /** Sites near the route, ordered by trip miles. */
  project(sites: RestSite[]): SiteOnRoute[] {
    const out: SiteOnRoute[] = [];
    this.legs.forEach((leg, i) => {
      const box = boundingBox(leg.geometry, MAX_SITE_OFFSET_MILES);
      for (const site of sites) {
        if (site.latitude < box.minLat || site.latitude > box.maxLat || site.longitude < box.minLng || site.longitude > box.maxLng) continue;
        const near = nearestPointOnPath(leg.geometry, site);
        if (near.distanceMiles > MAX_SITE_OFFSET_MILES) continue;
        const fraction = this.geometryLength[i]! > 0 ? near.milesAlong / this.geometryLength[i]! : 0;
        out.push({ site, tripMiles: this.legStart[i]! + fraction * leg.distanceMiles, offRouteMiles: near.distanceMiles });
      }
    });
    return out.sort((a, b) => a.tripMiles - b.tripMiles);
  }
}

function boundingBox(path: Point[], marginMiles: number) {
  let minLat = Infinity;
  let maxLat = -Infinity;
  let minLng = Infinity;
  let maxLng = -Infinity;
  for (const p of path) {
    minLat = Math.min(minLat, p.latitude);
    maxLat = Math.max(maxLat, p.latitude);
    minLng = Math.min(minLng, p.longitude);
    maxLng = Math.max(maxLng, p.longitude);
  }
  const dLat = marginMiles / 69;
  const dLng = marginMiles / Math.max(1, 69 * Math.cos(((minLat + maxLat) / 2) * (Math.PI / 180)));
  return { minLat: minLat - dLat, maxLat: maxLat + dLat, minLng: minLng - dLng, maxLng: maxLng + dLng };
}
