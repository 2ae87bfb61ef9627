import { createRemoteJWKSet, jwtVerify, errors as joseErrors, type JWTPayload } from 'jose';
import type { Config } from '../../config.js';
import { DomainError, unauthenticated } from '../../lib/errors.js';

/**
 * Verifies OpenID Connect ID tokens against the configured issuer: signature by a key of the issuer's
 * JWKS (discovered from /.well-known/openid-configuration unless OIDC_JWKS_URL is set), issuer,
 * audience, expiry. Returns the verified claims.
 */
export class IdTokenVerifier {
  private jwks: ReturnType<typeof createRemoteJWKSet> | undefined;

  constructor(private readonly oidc: NonNullable<Config['oidc']>) {}

  private async keySet(): Promise<ReturnType<typeof createRemoteJWKSet>> {
    if (this.jwks) return this.jwks;
    let url = this.oidc.jwksUrl;
    if (!url) {
      const discovery = `${this.oidc.issuer.replace(/\/$/, '')}/.well-known/openid-configuration`;
      const res = await fetch(discovery, { signal: AbortSignal.timeout(5000) }).catch(() => null);
      const doc = res?.ok ? ((await res.json()) as { jwks_uri?: string }) : null;
      if (!doc?.jwks_uri) throw new DomainError('NOT_CONFIGURED', 'Identity provider discovery failed');
      url = doc.jwks_uri;
    }
    this.jwks = createRemoteJWKSet(new URL(url), { timeoutDuration: 5000, cooldownDuration: 30_000 });
    return this.jwks;
  }

  async verify(idToken: string, now: Date): Promise<JWTPayload & { email?: string }> {
    const jwks = await this.keySet();
    try {
      const { payload } = await jwtVerify(idToken, jwks, {
        issuer: this.oidc.issuer,
        audience: this.oidc.audience,
        currentDate: now,
        algorithms: ['RS256', 'RS384', 'RS512', 'PS256', 'ES256', 'ES384', 'EdDSA'],
      });
      return payload as JWTPayload & { email?: string };
    } catch (err) {
      if (err instanceof joseErrors.JWTExpired) throw unauthenticated('Identity token expired');
      if (err instanceof joseErrors.JWKSNoMatchingKey) throw unauthenticated('Identity token signed by an unknown key');
      if (err instanceof joseErrors.JWTClaimValidationFailed) throw unauthenticated(`Identity token rejected: ${err.claim} claim is not valid`);
      if (err instanceof joseErrors.JWKSTimeout || (err as { code?: string }).code === 'ERR_JOSE_GENERIC') {
        throw new DomainError('NOT_CONFIGURED', 'Identity provider keys are unavailable');
      }
      throw unauthenticated('Invalid identity token');
    }
  }
}
