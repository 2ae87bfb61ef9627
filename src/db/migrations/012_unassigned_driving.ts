/**
 * Unassigned driving (issue 27): driving a vehicle recorded with no driver logged in — the ELD
 * specification's "unidentified driver" records (49 CFR Part 395 Subpart B, Appendix A, §4.6.1.6) and
 * 49 CFR 395.32: the driver reviews them and assumes those that are theirs; the carrier annotates the rest
 * (yard move, shop test drive) and keeps them at least six months (395.32(c)).
 *
 * A segment comes from an ELD integration (`source` = the vendor key, `vendor_segment_id` its id there:
 * synced once) or from other telematics through the API (`source` = 'API'). Its status moves UNASSIGNED →
 * ASSIGNMENT_PENDING (an edit request of the driver's log, origin UNIDENTIFIED_ASSUMED) → ASSIGNED when the
 * driver accepts, back to UNASSIGNED when they reject; or UNASSIGNED → ANNOTATED with the carrier's reason.
 * Who moved it and when is kept on the row; the assignment itself is the log edit (log_edits.unassigned_id).
 * The application may not delete segments (see migrate.ts).
 */
export default /* sql */ `
CREATE TABLE unassigned_driving (
  tenant_id          text NOT NULL REFERENCES tenants(id),
  id                 text NOT NULL,
  vehicle_id         text NOT NULL,
  started_at         timestamptz NOT NULL,
  ended_at           timestamptz NOT NULL,
  start_latitude     double precision,
  start_longitude    double precision,
  end_latitude       double precision,
  end_longitude      double precision,
  miles              double precision CHECK (miles IS NULL OR miles >= 0),
  source             text NOT NULL,
  vendor_segment_id  text,
  integration_id     text,
  status             text NOT NULL DEFAULT 'UNASSIGNED' CHECK (status IN ('UNASSIGNED','ASSIGNMENT_PENDING','ASSIGNED','ANNOTATED')),
  annotation         text CHECK (annotation IS NULL OR char_length(annotation) BETWEEN 4 AND 60),
  driver_id          text,
  edit_id            text,
  created_by         text,
  created_at         timestamptz NOT NULL,
  status_changed_at  timestamptz,
  status_changed_by  text,
  PRIMARY KEY (tenant_id, id),
  FOREIGN KEY (tenant_id, vehicle_id) REFERENCES vehicles (tenant_id, id),
  CHECK (ended_at > started_at),
  CHECK ((start_latitude IS NULL) = (start_longitude IS NULL) AND (end_latitude IS NULL) = (end_longitude IS NULL))
);
CREATE UNIQUE INDEX unassigned_driving_vendor_idx ON unassigned_driving (tenant_id, source, vendor_segment_id) WHERE vendor_segment_id IS NOT NULL;
CREATE INDEX unassigned_driving_vehicle_idx ON unassigned_driving (tenant_id, vehicle_id, started_at DESC);
CREATE INDEX unassigned_driving_open_idx ON unassigned_driving (tenant_id, started_at DESC) WHERE status IN ('UNASSIGNED','ASSIGNMENT_PENDING');
`;
