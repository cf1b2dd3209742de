import type { AppConfig } from '@payments/shared';
import { describe, expect, it } from 'vitest';
import { DEFAULT_VIEW } from '../../features/payments/view/list-view.ts';
import { paymentsTitle } from './payments-title.ts';

const config = {
  environment: 'production',
  own_company_id: 'acme',
  companies: [
    { id: 'acme', name: 'Acme Holding', parent_id: null },
    { id: 'acme-eu', name: 'Acme Europe B.V.', parent_id: 'acme' },
  ],
} as unknown as AppConfig;

describe('the tab title of the list', () => {
  it('names the statuses and the company, a group as the switcher names it', () => {
    expect(paymentsTitle({ ...DEFAULT_VIEW, statuses: ['FAILED'], group: true }, config, undefined)).toBe(
      'Failed · Acme Holding and its subsidiaries · Payments',
    );
    expect(paymentsTitle({ ...DEFAULT_VIEW, statuses: ['AWAITING', 'FAILED'] }, config, undefined)).toBe(
      'Awaiting, Failed · Acme Holding · Payments',
    );
  });

  it('names the open payment first, then the search and the company, and says SANDBOX in the sandbox', () => {
    const sandbox = { ...config, environment: 'sandbox' } as AppConfig;
    expect(paymentsTitle({ ...DEFAULT_VIEW, company: 'acme-eu', q: 'Wonka' }, sandbox, 'pay_42')).toBe(
      'pay_42 · “Wonka” · Acme Europe B.V. · Payments · SANDBOX',
    );
  });

  it('names a company the config does not know by its id', () => {
    expect(paymentsTitle({ ...DEFAULT_VIEW, company: 'gone' }, config, undefined)).toBe('gone · Payments');
  });
});
