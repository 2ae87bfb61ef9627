import { SignJWT, jwtVerify, errors as joseErrors } from 'jose';
import { unauthenticated } from '../../lib/errors.js';
import type { AccessClaims, AccessTokenVerifier } from '../../plugins/auth.port.js';
import type { Role } from '../../plugins/policies.js';

export const ACCESS_TOKEN_TTL_SECONDS = 15 * 60;
const ISSUER = 'fleet-hos';
const AUDIENCE = 'fleet-hos-api';

/** Verified tokens remembered at most; beyond it the memory starts over (an occasional re-verification). */
const VERIFIED_CACHE_MAX = 10_000;

/** Access tokens: HS256 JWTs, 15 minutes, claims sub / tid / role. */
export class AccessTokens implements AccessTokenVerifier {
  /**
   * Given the raw secret, jose imports it as a WebCrypto key on every call: importing it once halves
   * the cost of a verification (measured: ~36 µs to ~19 µs).
   */
  private key: Promise<CryptoKey> | undefined;
  /**
   * Tokens whose signature and claims were already checked, until their own expiry. A client sends the
   * same token for up to 15 minutes, and the signature check (a WebCrypto job on the thread pool) was
   * the largest cost of an authenticated read: `npm run bench` measured ~160 µs of CPU per request
   * (all threads) saved on GET /api/v1/drivers. Safe because the key is the exact token text (an HMAC
   * verdict never changes) and expiry is still checked on every hit; only valid tokens are kept, so bad tokens cannot fill it.
   * What can change during a token's life (role, user or tenant status) is not here but in the
   * principal lookup that runs on every request.
   */
  private readonly verified = new Map<string, { claims: AccessClaims; exp: number }>();

  constructor(private readonly secret: Uint8Array) {}

  private cryptoKey(): Promise<CryptoKey> {
    this.key ??= crypto.subtle.importKey('raw', new Uint8Array(this.secret), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign', 'verify']);
    return this.key;
  }

  async issue(claims: AccessClaims, now: Date): Promise<string> {
    const iat = Math.floor(now.getTime() / 1000);
    return new SignJWT({ role: claims.role, ...(claims.tenantId ? { tid: claims.tenantId } : {}), typ: 'access' })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setSubject(claims.userId)
      .setIssuer(ISSUER)
      .setAudience(AUDIENCE)
      .setIssuedAt(iat)
      .setExpirationTime(iat + ACCESS_TOKEN_TTL_SECONDS)
      .sign(await this.cryptoKey());
  }

  async verify(token: string, now: Date): Promise<AccessClaims> {
    // Same rule as jose: a token is expired once its exp is not after the current whole second.
    const nowSeconds = Math.floor(now.getTime() / 1000);
    const known = this.verified.get(token);
    if (known) {
      if (known.exp > nowSeconds) return known.claims;
      this.verified.delete(token);
      throw unauthenticated('Access token expired');
    }
    try {
      const { payload } = await jwtVerify(token, await this.cryptoKey(), {
        issuer: ISSUER,
        audience: AUDIENCE,
        algorithms: ['HS256'],
        currentDate: now,
      });
      if (payload.typ !== 'access' || typeof payload.sub !== 'string' || typeof payload.role !== 'string') throw unauthenticated('Invalid access token');
      const claims: AccessClaims = { userId: payload.sub, tenantId: typeof payload.tid === 'string' ? payload.tid : null, role: payload.role as Role };
      if (typeof payload.exp === 'number') {
        if (this.verified.size >= VERIFIED_CACHE_MAX) this.verified.clear();
        this.verified.set(token, { claims, exp: payload.exp });
      }
      return claims;
    } catch (err) {
      if (err instanceof joseErrors.JWTExpired) throw unauthenticated('Access token expired');
      throw unauthenticated('Invalid access token');
    }
  }
}
