/**
 * The reads a plan makes about its driver's other routes (issue 28), each by an index whatever the
 * driver's history: without these, planning read every route the driver ever had (the double-booking
 * warnings and the last known position scanned them), and PostgreSQL's work per plan grew with it
 * (9 ms of execution per plan for a driver with 1,800 routes, 3,669 buffers; bench/README.md).
 *
 * - the PLANNED routes of a driver (or co-driver) in order of departure: the routes a new one may overlap;
 * - the PLANNED or ACTIVE routes by arrival: the one that ends last before the new departure;
 * - the routes a driver drove, most recently activated first: their newest position (positions are
 *   reported to ACTIVE routes only, and a driver has one ACTIVE route at a time);
 * - the COMPLETED routes by completion: where the last one ended.
 *
 * And a plan's JSON (~30 KB, stored out of line and compressed) compressed with lz4 rather than pglz on
 * PostgreSQL: measured by hand on a 16-KB plan document, ~38 µs of CPU to compress against ~100 µs, for a
 * few per cent more bytes. PGlite is built without lz4 and keeps pglz (the feature_not_supported error).
 */
export default /* sql */ `
CREATE INDEX route_plans_driver_planned_idx ON route_plans (tenant_id, driver_id, departure_time, id) INCLUDE (arrival_time, co_driver_id) WHERE status = 'PLANNED';
CREATE INDEX route_plans_co_driver_planned_idx ON route_plans (tenant_id, co_driver_id, departure_time, id) INCLUDE (arrival_time, driver_id) WHERE status = 'PLANNED' AND co_driver_id IS NOT NULL;
CREATE INDEX route_plans_driver_open_arrival_idx ON route_plans (tenant_id, driver_id, arrival_time) WHERE status IN ('PLANNED', 'ACTIVE');
CREATE INDEX route_plans_co_driver_open_arrival_idx ON route_plans (tenant_id, co_driver_id, arrival_time) WHERE status IN ('PLANNED', 'ACTIVE') AND co_driver_id IS NOT NULL;
CREATE INDEX route_plans_driver_activated_idx ON route_plans (tenant_id, driver_id, activated_at DESC) WHERE activated_at IS NOT NULL;
CREATE INDEX route_plans_co_driver_activated_idx ON route_plans (tenant_id, co_driver_id, activated_at DESC) WHERE activated_at IS NOT NULL AND co_driver_id IS NOT NULL;
CREATE INDEX route_plans_driver_completed_idx ON route_plans (tenant_id, driver_id, completed_at DESC) WHERE status = 'COMPLETED';
CREATE INDEX route_plans_co_driver_completed_idx ON route_plans (tenant_id, co_driver_id, completed_at DESC) WHERE status = 'COMPLETED' AND co_driver_id IS NOT NULL;
DO $$
BEGIN
  ALTER TABLE route_plans ALTER COLUMN request SET COMPRESSION lz4, ALTER COLUMN summary SET COMPRESSION lz4,
                          ALTER COLUMN stops SET COMPRESSION lz4, ALTER COLUMN segments SET COMPRESSION lz4;
EXCEPTION WHEN feature_not_supported THEN
  NULL;
END $$;
`;
