/**
 * A manual sync of a DISABLED integration runs once and leaves it DISABLED (issue 17): while such a sync
 * is SYNCING, return_to_disabled says where it goes when it ends (DISABLED, not ACTIVE or ERROR), so
 * that whichever worker finishes it, after a crash included, knows.
 */
export default /* sql */ `
ALTER TABLE integrations ADD COLUMN return_to_disabled boolean NOT NULL DEFAULT false;
`;
