import type { Tx } from '../../db/types.js';
import { randomToken, sha256Hex } from '../../lib/crypto.js';
import { unauthenticated } from '../../lib/errors.js';
import { newId } from '../../lib/ids.js';

export const REFRESH_TOKEN_TTL_MS = 30 * 24 * 3_600_000;

export interface RefreshSubject {
  tenantId: string | null;
  subjectId: string;
}

/** Issues an opaque refresh token (only its SHA-256 is stored), optionally continuing a family. */
export async function issueRefreshToken(tx: Tx, subject: RefreshSubject, now: Date, familyId?: string): Promise<string> {
  const raw = randomToken(32);
  await tx.query(
    `INSERT INTO refresh_tokens (id, tenant_id, subject_id, family_id, token_hash, expires_at, created_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7)`,
    [newId('refreshToken'), subject.tenantId, subject.subjectId, familyId ?? newId('refreshToken'), sha256Hex(raw), new Date(now.getTime() + REFRESH_TOKEN_TTL_MS), now],
  );
  return raw;
}

export class RefreshReuseError extends Error {}

/**
 * Rotation with reuse detection: a token can be exchanged once. Presenting an already rotated token
 * means it leaked (or was replayed): the whole family is revoked and the caller must sign in again.
 * Returns the subject and the new token, or throws. Runs in a system transaction.
 */
export async function rotateRefreshToken(tx: Tx, raw: string, now: Date): Promise<{ subject: RefreshSubject; token: string } | RefreshReuseError> {
  const { rows } = await tx.query<{ id: string; tenant_id: string | null; subject_id: string; family_id: string; expires_at: Date; rotated_at: Date | null; revoked_at: Date | null }>(
    'SELECT * FROM refresh_tokens WHERE token_hash = $1 FOR UPDATE',
    [sha256Hex(raw)],
  );
  const row = rows[0];
  if (!row || row.revoked_at !== null) throw unauthenticated('Invalid refresh token');
  if (row.rotated_at !== null) {
    await tx.query('UPDATE refresh_tokens SET revoked_at = $2 WHERE family_id = $1 AND revoked_at IS NULL', [row.family_id, now]);
    return new RefreshReuseError('Refresh token reuse detected: every session of this sign-in has been revoked. Please sign in again.');
  }
  if (new Date(row.expires_at).getTime() <= now.getTime()) throw unauthenticated('Refresh token expired');
  await tx.query('UPDATE refresh_tokens SET rotated_at = $2 WHERE id = $1', [row.id, now]);
  const subject = { tenantId: row.tenant_id, subjectId: row.subject_id };
  return { subject, token: await issueRefreshToken(tx, subject, now, row.family_id) };
}

export async function revokeRefreshFamily(tx: Tx, raw: string, now: Date): Promise<void> {
  await tx.query(
    `UPDATE refresh_tokens SET revoked_at = $2
      WHERE family_id = (SELECT family_id FROM refresh_tokens WHERE token_hash = $1) AND revoked_at IS NULL`,
    [sha256Hex(raw), now],
  );
}

export async function revokeSubjectTokens(tx: Tx, subjectId: string, now: Date): Promise<void> {
  await tx.query('UPDATE refresh_tokens SET revoked_at = $2 WHERE subject_id = $1 AND revoked_at IS NULL', [subjectId, now]);
}
