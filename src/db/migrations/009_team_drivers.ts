/**
 * Team driving (issue 20): a route may have a co-driver, who shares the truck with its driver. Either
 * of the two drives one ACTIVE route at a time (checked at activation, and here for the co-driver).
 */
export default /* sql */ `
ALTER TABLE route_plans ADD COLUMN co_driver_id text;
ALTER TABLE route_plans ADD CONSTRAINT route_plans_co_driver_fkey FOREIGN KEY (tenant_id, co_driver_id) REFERENCES drivers (tenant_id, id);
ALTER TABLE route_plans ADD CONSTRAINT route_plans_co_driver_differs CHECK (co_driver_id IS NULL OR co_driver_id <> driver_id);
CREATE INDEX route_plans_co_driver_idx ON route_plans (tenant_id, co_driver_id, created_at DESC) WHERE co_driver_id IS NOT NULL;
CREATE UNIQUE INDEX route_plans_one_active_co_key ON route_plans (tenant_id, co_driver_id) WHERE status = 'ACTIVE' AND co_driver_id IS NOT NULL;
`;
