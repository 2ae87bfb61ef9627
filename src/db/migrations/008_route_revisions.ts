/**
 * Re-planning an active route (issue 19): the route keeps its current plan in route_plans (with its
 * revision number, when and by whom it was made and why) and every plan it replaced in route_revisions,
 * whole, so that an earlier revision can be read back exactly as it was.
 */
export default /* sql */ `
ALTER TABLE route_plans
  ADD COLUMN revision        integer NOT NULL DEFAULT 1,
  ADD COLUMN revised_at      timestamptz,
  ADD COLUMN revised_by      text,
  ADD COLUMN revision_reason text;

CREATE TABLE route_revisions (
  tenant_id       text NOT NULL REFERENCES tenants(id),
  route_id        text NOT NULL,
  revision        integer NOT NULL CHECK (revision >= 1),
  created_at      timestamptz NOT NULL,
  created_by      text,
  reason          text,
  departure_time  timestamptz NOT NULL,
  arrival_time    timestamptz NOT NULL,
  distance_method text NOT NULL,
  request         json NOT NULL,
  summary         json NOT NULL,
  stops           json NOT NULL,
  segments        json NOT NULL,
  superseded_at   timestamptz NOT NULL,
  PRIMARY KEY (tenant_id, route_id, revision),
  FOREIGN KEY (tenant_id, route_id) REFERENCES route_plans (tenant_id, id)
);
`;
