/**
 * A route's plan (request, summary, stops, segments: ~30 KB of JSON per route) is written once, read
 * whole, and never queried into: stored as json (the text, validated) rather than jsonb (parsed into a
 * binary form on every write and printed back on every read). Measured on PGlite in memory: inserting
 * two 14-KB documents 940–1,110 µs of CPU as jsonb, 580–670 µs as json; reading them back 650–700 µs
 * as jsonb, 370–490 µs as json (bench/README.md). PostgreSQL does the same work on its side.
 */
export default /* sql */ `
ALTER TABLE route_plans
  ALTER COLUMN request TYPE json USING request::json,
  ALTER COLUMN summary TYPE json USING summary::json,
  ALTER COLUMN stops TYPE json USING stops::json,
  ALTER COLUMN segments TYPE json USING segments::json;
`;
