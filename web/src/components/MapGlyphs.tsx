/**
 * The map's marker glyphs, each centred on (0,0): stops (a letter per kind), rests, 30-minute breaks,
 * fuel stops and trucks differ by shape and letter, not by colour alone. The legend draws them too.
 */
const STOP_LETTERS: Record<string, string> = { ORIGIN: 'O', PICKUP: 'P', DELIVERY: 'D', WAYPOINT: 'W' };

export function StopGlyph({ type }: { type: string }) {
  const letter = STOP_LETTERS[type] ?? 'S';
  return (
    <>
      {type === 'DELIVERY' ? <circle r={9} className="glyph-stop glyph-delivery" /> : type === 'WAYPOINT' ? <rect x={-7} y={-7} width={14} height={14} transform="rotate(45)" className="glyph-stop" /> : <rect x={-8} y={-8} width={16} height={16} rx={2} className="glyph-stop glyph-pickup" />}
      <text className="glyph-letter" dy="0.35em">
        {letter}
      </text>
    </>
  );
}

export function RestGlyph() {
  return (
    <>
      <rect x={-8.5} y={-8.5} width={17} height={17} rx={4} className="glyph-rest" />
      <text className="glyph-letter glyph-letter-light" dy="0.35em">
        R
      </text>
    </>
  );
}

export function BreakGlyph() {
  return (
    <>
      <circle r={7} className="glyph-break" />
      <text className="glyph-letter glyph-letter-small" dy="0.35em">
        B
      </text>
    </>
  );
}

export function FuelGlyph() {
  return (
    <>
      <path d="M0,-10 L9,6 L-9,6 Z" className="glyph-fuel" />
      <text className="glyph-letter glyph-letter-light glyph-letter-small" y={1.5} dy="0.35em">
        F
      </text>
    </>
  );
}

export function TruckGlyph({ heading }: { heading?: number | null }) {
  return (
    <>
      <circle r={10} className="glyph-truck" />
      {heading === null || heading === undefined ? <rect x={-3.5} y={-3.5} width={7} height={7} className="glyph-truck-dot" /> : <path d="M0,-7 L5,5 L0,2 L-5,5 Z" className="glyph-truck-dot" transform={`rotate(${heading})`} />}
    </>
  );
}
