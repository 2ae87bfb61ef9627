/**
 * A static spatial index for nearest-point queries on the sphere: a uniform latitude/longitude grid in
 * compressed-row form, searched ring by ring outwards from the query's cell until no unvisited cell can
 * hold anything closer.
 *
 * Candidates are compared by squared chord length between unit vectors (monotonic in great-circle
 * distance, three multiplications, no trigonometry); only the winner's distance is converted to miles.
 * The grid does not wrap at the antimeridian, which is fine for North American data (nothing of
 * interest straddles it).
 */
import { EARTH_RADIUS_MILES, type LatLng } from './geodesy.js';

const RAD = Math.PI / 180;

export interface NearestHit<T> {
  item: T;
  distanceMiles: number;
}

/** Squared chord on the unit sphere for a central angle (radians, capped at π). */
const chordSquared = (angle: number): number => {
  const half = Math.sin(Math.min(angle, Math.PI) / 2);
  return 4 * half * half;
};

interface Best {
  chord2: number;
  index: number;
}

export class PointIndex<T extends LatLng> {
  private constructor(
    private readonly items: readonly T[],
    private readonly x: Float64Array,
    private readonly y: Float64Array,
    private readonly z: Float64Array,
    private readonly cellStart: Int32Array,
    private readonly minLatitude: number,
    private readonly minLongitude: number,
    private readonly rows: number,
    private readonly columns: number,
    private readonly cellDegrees: number,
  ) {}

  /** Builds the index; items with invalid coordinates are left out. */
  static build<T extends LatLng>(input: readonly T[], cellDegrees = 0.5): PointIndex<T> {
    if (!(cellDegrees > 0)) throw new RangeError('PointIndex: cellDegrees must be positive');
    const items = input.filter(
      (p) => Number.isFinite(p.latitude) && Number.isFinite(p.longitude) && Math.abs(p.latitude) <= 90 && Math.abs(p.longitude) <= 180,
    );
    let minLat = Infinity;
    let minLon = Infinity;
    let maxLat = -Infinity;
    let maxLon = -Infinity;
    for (const p of items) {
      minLat = Math.min(minLat, p.latitude);
      maxLat = Math.max(maxLat, p.latitude);
      minLon = Math.min(minLon, p.longitude);
      maxLon = Math.max(maxLon, p.longitude);
    }
    if (items.length === 0) [minLat, maxLat, minLon, maxLon] = [0, 0, 0, 0];
    const rows = Math.floor((maxLat - minLat) / cellDegrees) + 1;
    const columns = Math.floor((maxLon - minLon) / cellDegrees) + 1;
    const cellOf = (p: LatLng): number =>
      Math.floor((p.latitude - minLat) / cellDegrees) * columns + Math.floor((p.longitude - minLon) / cellDegrees);

    // Counting sort of the items by cell: cellStart[c]..cellStart[c+1] are cell c's items.
    const cellStart = new Int32Array(rows * columns + 1);
    for (const p of items) cellStart[cellOf(p) + 1]!++;
    for (let c = 0; c < rows * columns; c++) cellStart[c + 1]! += cellStart[c]!;
    const fill = cellStart.slice(0, rows * columns);
    const sorted = new Array<T>(items.length);
    const x = new Float64Array(items.length);
    const y = new Float64Array(items.length);
    const z = new Float64Array(items.length);
    for (const p of items) {
      const k = fill[cellOf(p)]!++;
      sorted[k] = p;
      const phi = p.latitude * RAD;
      const lambda = p.longitude * RAD;
      x[k] = Math.cos(phi) * Math.cos(lambda);
      y[k] = Math.cos(phi) * Math.sin(lambda);
      z[k] = Math.sin(phi);
    }
    return new PointIndex(sorted, x, y, z, cellStart, minLat, minLon, rows, columns, cellDegrees);
  }

  get size(): number {
    return this.items.length;
  }

  /** The item nearest to `point` within `maxMiles` (inclusive), or null. */
  nearest(point: LatLng, maxMiles = Infinity): NearestHit<T> | null {
    if (this.items.length === 0 || !Number.isFinite(point.latitude) || !Number.isFinite(point.longitude)) return null;
    const phi = point.latitude * RAD;
    const lambda = point.longitude * RAD;
    const cosPhi = Math.cos(phi);
    const px = cosPhi * Math.cos(lambda);
    const py = cosPhi * Math.sin(lambda);
    const pz = Math.sin(phi);
    const s = this.cellDegrees;

    // The query's (possibly virtual, outside the grid) cell and its distance to that cell's edges.
    const row = Math.floor((point.latitude - this.minLatitude) / s);
    const column = Math.floor((point.longitude - this.minLongitude) / s);
    const cellSouth = this.minLatitude + row * s;
    const cellWest = this.minLongitude + column * s;
    const edgeLat = Math.min(point.latitude - cellSouth, cellSouth + s - point.latitude);
    const edgeLon = Math.min(point.longitude - cellWest, cellWest + s - point.longitude);

    const best: Best = { chord2: maxMiles === Infinity ? 4 : chordSquared(maxMiles / EARTH_RADIUS_MILES), index: -1 };
    const lastRing = Math.max(row, this.rows - 1 - row, column, this.columns - 1 - column);
    for (let ring = 0; ring <= lastRing; ring++) {
      if (ring > 0) {
        // Every cell of this ring is at least this many degrees away in latitude or in longitude.
        const latGap = ((ring - 1) * s + edgeLat) * RAD;
        const lonGap = Math.min(((ring - 1) * s + edgeLon) * RAD, Math.PI / 2);
        // Distance from the point to the meridian plane lonGap away bounds all points beyond it.
        const lowerBound = Math.min(latGap, Math.asin(Math.min(1, cosPhi * Math.sin(lonGap))));
        if (chordSquared(lowerBound) > best.chord2) break;
      }
      const r0 = Math.max(0, row - ring);
      const r1 = Math.min(this.rows - 1, row + ring);
      for (let r = r0; r <= r1; r++) {
        if (r === row - ring || r === row + ring) {
          const c1 = Math.min(this.columns - 1, column + ring);
          for (let c = Math.max(0, column - ring); c <= c1; c++) this.scanCell(r * this.columns + c, px, py, pz, best);
        } else {
          if (column - ring >= 0 && column - ring < this.columns) this.scanCell(r * this.columns + column - ring, px, py, pz, best);
          if (column + ring >= 0 && column + ring < this.columns) this.scanCell(r * this.columns + column + ring, px, py, pz, best);
        }
      }
    }
    if (best.index < 0) return null;
    const angle = 2 * Math.asin(Math.min(1, Math.sqrt(best.chord2) / 2));
    return { item: this.items[best.index]!, distanceMiles: angle * EARTH_RADIUS_MILES };
  }

  private scanCell(cell: number, px: number, py: number, pz: number, best: Best): void {
    const end = this.cellStart[cell + 1]!;
    for (let k = this.cellStart[cell]!; k < end; k++) {
      const dx = this.x[k]! - px;
      const dy = this.y[k]! - py;
      const dz = this.z[k]! - pz;
      const d2 = dx * dx + dy * dy + dz * dz;
      if (d2 <= best.chord2) {
        best.chord2 = d2;
        best.index = k;
      }
    }
  }
}
