import type { Company } from '@payments/shared';

/** One customer of the sandbox: its credentials and its company tree (`companies[0]` is the root). */
export interface SandboxTenant {
  name: string;
  secretId: string;
  secretPassword: string;
  rootCompanyId: string;
  companies: Company[];
}

export interface Credentials {
  secretId: string;
  secretPassword: string;
}

export const DEFAULT_CREDENTIALS = {
  sandbox: { secretId: 'sandbox_id', secretPassword: 'sandbox_secret' },
  other: { secretId: 'other_id', secretPassword: 'other_secret' },
} as const satisfies Record<string, Credentials>;

const ACME: Company[] = [
  { id: 'acme', name: 'Acme Holding', parent_id: null },
  { id: 'acme-eu', name: 'Acme Europe B.V.', parent_id: 'acme' },
  { id: 'acme-eu-de', name: 'Acme Deutschland GmbH', parent_id: 'acme-eu' },
  { id: 'acme-eu-fr', name: 'Acme France SAS', parent_id: 'acme-eu' },
  { id: 'acme-us', name: 'Acme Americas Inc.', parent_id: 'acme' },
  { id: 'acme-us-ny', name: 'Acme New York LLC', parent_id: 'acme-us' },
  { id: 'acme-us-ca', name: 'Acme California LLC', parent_id: 'acme-us' },
  { id: 'acme-jp', name: 'Acme Japan K.K. (アクメ)', parent_id: 'acme' },
];

const GLOBEX: Company[] = [
  { id: 'globex', name: 'Globex Corporation', parent_id: null },
  { id: 'globex-uk', name: 'Globex UK Ltd', parent_id: 'globex' },
  { id: 'globex-uk-lon', name: 'Globex London', parent_id: 'globex-uk' },
  { id: 'globex-uk-man', name: 'Globex Manchester', parent_id: 'globex-uk' },
  { id: 'globex-de', name: 'Globex Deutschland GmbH', parent_id: 'globex' },
  { id: 'globex-de-ber', name: 'Globex Berlin', parent_id: 'globex-de' },
];

/**
 * Relative share of seeded payments per company when no other weights are given: deliberately uneven, so
 * that some lists are long and one is nearly empty.
 */
export const DEFAULT_SEED_WEIGHTS: Readonly<Record<string, number>> = {
  acme: 22,
  'acme-eu': 9,
  'acme-eu-de': 16,
  'acme-eu-fr': 5,
  'acme-us': 7,
  'acme-us-ny': 13,
  'acme-us-ca': 0.2,
  'acme-jp': 3,
  globex: 10,
  'globex-uk': 4,
  'globex-uk-lon': 6,
  'globex-uk-man': 1,
  'globex-de': 2,
  'globex-de-ber': 2,
};

/** The two tenants: the one the dashboard uses, and an unrelated one whose companies must stay out of reach. */
export function buildTenants(credentials: {
  sandbox?: Credentials | undefined;
  other?: Credentials | undefined;
}): SandboxTenant[] {
  const sandbox = credentials.sandbox ?? DEFAULT_CREDENTIALS.sandbox;
  const other = credentials.other ?? DEFAULT_CREDENTIALS.other;
  if (sandbox.secretId === other.secretId) {
    throw new Error('the two sandbox tenants need different secret ids');
  }
  return [
    { name: 'Acme', ...sandbox, rootCompanyId: 'acme', companies: ACME.map((c) => ({ ...c })) },
    { name: 'Globex', ...other, rootCompanyId: 'globex', companies: GLOBEX.map((c) => ({ ...c })) },
  ];
}
