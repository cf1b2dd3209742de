import { createHash, timingSafeEqual } from 'node:crypto';
import type { SandboxTenant } from './tenants.ts';

export type Authentication =
  | { ok: true; tenant: SandboxTenant }
  | { ok: false; reason: 'missing' | 'malformed' | 'wrong' };

const BASIC = /^Basic +([A-Za-z0-9+/]+={0,2}) *$/i;

/** Hashing both sides first makes the comparison take the same time whatever the lengths. */
function sameSecret(given: string, expected: string): boolean {
  const digest = (value: string) => createHash('sha256').update(value, 'utf8').digest();
  return timingSafeEqual(digest(given), digest(expected));
}

/** Finds the tenant whose credentials an `Authorization: Basic …` header carries (RFC 7617). */
export function authenticate(header: string | undefined, tenants: readonly SandboxTenant[]): Authentication {
  if (header === undefined || header === '') return { ok: false, reason: 'missing' };
  const match = BASIC.exec(header);
  if (!match) return { ok: false, reason: 'malformed' };
  const decoded = Buffer.from(match[1] as string, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 0) return { ok: false, reason: 'malformed' };
  const secretId = decoded.slice(0, colon);
  const secretPassword = decoded.slice(colon + 1);
  let found: SandboxTenant | undefined;
  for (const tenant of tenants) {
    // Both parts are always compared (no short-circuit), so timing does not tell which one was wrong.
    const idMatches = sameSecret(secretId, tenant.secretId);
    const passwordMatches = sameSecret(secretPassword, tenant.secretPassword);
    if (idMatches && passwordMatches) found = tenant;
  }
  return found ? { ok: true, tenant: found } : { ok: false, reason: 'wrong' };
}
