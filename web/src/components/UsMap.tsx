/**
 * A map of the United States drawn offline: state outlines from us-atlas (a JSON asset fetched once,
 * not part of the JavaScript), projected with d3-geo's Albers USA, as SVG. On it: route paths, stops,
 * planned rests and 30-minute breaks, fuel stops and trucks at their last reported position, each kind
 * with its own letter and shape (not colour alone), a <title> per marker and a legend. Points the
 * projection cannot place (outside the US and its insets) are left out. A route's map can be fitted to
 * what it shows (the view box zooms in; lines and markers keep their size on screen).
 */
import { geoAlbersUsa, geoPath, type GeoProjection } from 'd3-geo';
import { useEffect, useState, type CSSProperties, type ReactNode } from 'react';
import { feature, mesh } from 'topojson-client';
import type { GeometryCollection, Topology } from 'topojson-specification';
import statesUrl from 'us-atlas/states-10m.json?url';
import { boundsOf, fitViewBox, projectPoint, projectRuns, polylinePath, type Project, type ViewBox } from '../lib/map-geometry';
import { mapSummary, type MapLayers, type MapMarker } from '../lib/route-map';
import { BreakGlyph, FuelGlyph, RestGlyph, StopGlyph, TruckGlyph } from './MapGlyphs';
import './us-map.css';

const W = 975;
const H = 610;
const PAD = 12;
/** Markers are drawn a little larger than their glyphs (which the legend uses at 20 px). */
const MARKER_SCALE = 1.25;
const FRAME: ViewBox = { x: 0, y: 0, width: W, height: H };
/** A fitted view: 15 % of the route's span around it, and never narrower than ~100 units (about 450 mi). */
const FIT = { padding: 0.15, minWidth: 100 };
/** Route line colours (each at least 4.5:1 against the map's land colour). */
export const ROUTE_COLOURS = ['#0b5cad', '#a34e00', '#6a3d9a', '#1d6b35', '#b0124f', '#00695c', '#5d4037', '#37474f'];
export const routeColour = (i: number) => ROUTE_COLOURS[i % ROUTE_COLOURS.length]!;

interface Atlas {
  land: string;
  borders: string;
  outline: string;
  projection: GeoProjection;
}

let atlas: Promise<Atlas> | null = null;

/** The state outlines, fetched and projected once per page load. */
function loadAtlas(): Promise<Atlas> {
  atlas ??= fetch(statesUrl)
    .then((res) => {
      if (!res.ok) throw new Error(`The map outlines could not be loaded (${res.status})`);
      return res.json() as Promise<Topology>;
    })
    .then((topo) => {
      const statesObj = topo.objects.states as GeometryCollection;
      const states = feature(topo, statesObj);
      const projection = geoAlbersUsa().fitExtent(
        [
          [PAD, PAD],
          [W - PAD, H - PAD],
        ],
        states,
      );
      const path = geoPath(projection);
      return {
        land: path(states) ?? '',
        borders: path(mesh(topo, statesObj, (a, b) => a !== b)) ?? '',
        outline: path(mesh(topo, statesObj, (a, b) => a === b)) ?? '',
        projection,
      };
    })
    .catch((err: unknown) => {
      atlas = null;
      throw err;
    });
  return atlas;
}

/** The projection used until (or if never) the outlines load: Albers USA sized for the same box. */
const fallbackProjection = geoAlbersUsa().scale(1300).translate([W / 2, H / 2]);

function useAtlas(): { atlas: Atlas | null; error: string | null } {
  const [state, setState] = useState<{ atlas: Atlas | null; error: string | null }>({ atlas: null, error: null });
  useEffect(() => {
    let live = true;
    loadAtlas().then(
      (a) => live && setState({ atlas: a, error: null }),
      (e: unknown) => live && setState({ atlas: null, error: e instanceof Error ? e.message : String(e) }),
    );
    return () => {
      live = false;
    };
  }, []);
  return state;
}

/** One marker: its glyph centred on (0,0), moved to the point, titled. */
function Marker({ at, testId, title, zoom, children }: { at: [number, number]; testId: string; title: string; zoom: number; children: ReactNode }) {
  return (
    <g className="map-marker" data-testid={testId} transform={`translate(${Math.round(at[0] * 10) / 10},${Math.round(at[1] * 10) / 10}) scale(${Math.round((MARKER_SCALE / zoom) * 1000) / 1000})`}>
      <title>{title}</title>
      {children}
    </g>
  );
}

const titleOf = (m: MapMarker) => (m.detail ? `${m.label} — ${m.detail}` : m.label);

function LegendItem({ glyph, label }: { glyph: ReactNode; label: string }) {
  return (
    <li>
      <svg viewBox="-11 -11 22 22" width={20} height={20} aria-hidden="true" className="legend-glyph">
        {glyph}
      </svg>
      {label}
    </li>
  );
}

export interface UsMapProps {
  layers: MapLayers;
  /** Names the map (its accessible name starts with it); default: "Map of the United States". */
  title?: string;
  /** Shown under the legend when there is nothing to draw. */
  emptyNote?: string;
  /** Routes' names in the legend (the overview's route list has them already). */
  showRouteLegend?: boolean;
  /** 'content' zooms to what the map shows (a route's page); default 'country', the whole map. */
  fit?: 'country' | 'content';
}

export function UsMap({ layers, title, emptyNote, showRouteLegend = true, fit = 'country' }: UsMapProps) {
  const { atlas: loaded, error } = useAtlas();
  const projection = loaded?.projection ?? fallbackProjection;
  const project: Project = (p) => projection(p);
  const place = (m: MapMarker) => projectPoint(project, m);
  const summary = mapSummary(layers);
  const label = title ? `${title}. ${summary.replace(/^Map of the United States: /, '')}` : summary;
  const fullRests = layers.rests.filter((r) => r.kind === 'rest');
  const breaks = layers.rests.filter((r) => r.kind === 'break');
  const stopTypes = [...new Set(layers.stops.map((s) => s.type))];
  const routePaths = layers.routes.map((r) => ({ route: r, runs: projectRuns(project, r.points) }));
  const markers = [...layers.stops, ...layers.rests, ...layers.fuel, ...layers.trucks];
  const placed = markers.map(place).filter((xy): xy is [number, number] => xy !== null);
  const offMap = markers.length - placed.length;
  const view = fit === 'content' ? fitViewBox(boundsOf([...routePaths.flatMap((p) => p.runs.flat()), ...placed]), FRAME, FIT) : FRAME;
  const zoom = W / view.width;
  const mark = (m: MapMarker, testId: string, glyph: ReactNode) => {
    const at = place(m);
    return at && <Marker key={m.id} at={at} testId={testId} title={titleOf(m)} zoom={zoom}>{glyph}</Marker>;
  };
  return (
    <figure className="us-map-figure">
      <svg className="us-map" viewBox={`${view.x} ${view.y} ${view.width} ${view.height}`} style={{ '--map-zoom': zoom } as CSSProperties} role="img" aria-label={label} data-testid="us-map" data-ready={loaded ? 'true' : 'false'}>
        {loaded ? (
          <g className="map-base" aria-hidden="true">
            <path className="map-land" d={loaded.land} />
            <path className="map-borders" d={loaded.borders} />
            <path className="map-outline" d={loaded.outline} />
          </g>
        ) : (
          <text x={view.x + view.width / 2} y={view.y + view.height / 2} textAnchor="middle" className="map-status">
            {error ?? 'Loading map…'}
          </text>
        )}
        <g className="map-routes">
          {routePaths.map(({ route: r, runs }) => {
            const d = polylinePath(runs);
            return d ? (
              <g key={r.id} data-testid="map-route">
                <title>{`Route ${r.label}`}</title>
                <path className="map-route-casing" d={d} />
                <path className="map-route" d={d} style={{ stroke: routeColour(r.colour) }} />
              </g>
            ) : null;
          })}
        </g>
        <g className="map-markers">
          {layers.fuel.map((m) => mark(m, 'map-fuel', <FuelGlyph />))}
          {breaks.map((m) => mark(m, 'map-break', <BreakGlyph />))}
          {fullRests.map((m) => mark(m, 'map-rest', <RestGlyph />))}
          {layers.stops.map((m) => mark(m, 'map-stop', <StopGlyph type={m.type} />))}
          {layers.trucks.map((m) => mark(m, 'map-truck', <TruckGlyph heading={m.headingDegrees} />))}
        </g>
      </svg>
      <figcaption>
        <ul className="map-legend" aria-label="Map legend">
          {showRouteLegend &&
            layers.routes.map((r) => (
              <li key={r.id}>
                <svg viewBox="0 0 22 10" width={22} height={10} aria-hidden="true" className="legend-glyph">
                  <line x1={1} x2={21} y1={5} y2={5} style={{ stroke: routeColour(r.colour) }} className="legend-line" />
                </svg>
                {r.label}
              </li>
            ))}
          {(stopTypes.length > 0 ? stopTypes : ['PICKUP', 'DELIVERY']).map((t) => (
            <LegendItem key={t} glyph={<StopGlyph type={t} />} label={`${t.charAt(0)}${t.slice(1).toLowerCase()} stop`} />
          ))}
          <LegendItem glyph={<RestGlyph />} label={`Rest / sleeper (${fullRests.length})`} />
          <LegendItem glyph={<BreakGlyph />} label={`30-min break (${breaks.length})`} />
          <LegendItem glyph={<FuelGlyph />} label={`Fuel stop (${layers.fuel.length})`} />
          <LegendItem glyph={<TruckGlyph heading={0} />} label={`Truck, last position (${layers.trucks.length})`} />
        </ul>
        {offMap > 0 && (
          <p className="muted map-note">
            {offMap} point{offMap > 1 ? 's are' : ' is'} outside the map (beyond the United States) and not drawn.
          </p>
        )}
        {emptyNote && layers.routes.length === 0 && layers.trucks.length === 0 && <p className="muted map-note">{emptyNote}</p>}
      </figcaption>
    </figure>
  );
}
