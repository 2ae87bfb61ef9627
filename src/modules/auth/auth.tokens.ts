import { SignJWT, jwtVerify, errors as joseErrors } from 'jose';
import { unauthenticated } from '../../lib/errors.js';
import type { Role } from '../../plugins/policies.js';

export const ACCESS_TOKEN_TTL_SECONDS = 15 * 60;
const ISSUER = 'fleet-hos';
const AUDIENCE = 'fleet-hos-api';

export interface AccessClaims {
  userId: string;
  tenantId: string | null;
  role: Role;
}

/** Access tokens: HS256 JWTs, 15 minutes, claims sub / tid / role. */
export class AccessTokens {
  constructor(private readonly secret: Uint8Array) {}

  issue(claims: AccessClaims, now: Date): Promise<string> {
    const iat = Math.floor(now.getTime() / 1000);
    return new SignJWT({ role: claims.role, ...(claims.tenantId ? { tid: claims.tenantId } : {}), typ: 'access' })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setSubject(claims.userId)
      .setIssuer(ISSUER)
      .setAudience(AUDIENCE)
      .setIssuedAt(iat)
      .setExpirationTime(iat + ACCESS_TOKEN_TTL_SECONDS)
      .sign(this.secret);
  }

  async verify(token: string, now: Date): Promise<AccessClaims> {
    try {
      const { payload } = await jwtVerify(token, this.secret, {
        issuer: ISSUER,
        audience: AUDIENCE,
        algorithms: ['HS256'],
        currentDate: now,
      });
      if (payload.typ !== 'access' || typeof payload.sub !== 'string' || typeof payload.role !== 'string') throw unauthenticated('Invalid access token');
      return { userId: payload.sub, tenantId: typeof payload.tid === 'string' ? payload.tid : null, role: payload.role as Role };
    } catch (err) {
      if (err instanceof joseErrors.JWTExpired) throw unauthenticated('Access token expired');
      throw unauthenticated('Invalid access token');
    }
  }
}
