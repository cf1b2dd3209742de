import { describe, expect, it } from 'vitest';
import { companyNames, paymentCompanyId } from './company-names.ts';

const companies = [
  { id: 'acme', name: 'Acme Holding', parent_id: null },
  { id: 'acme-eu', name: 'Acme Europe B.V.', parent_id: 'acme' },
];

describe('company names', () => {
  it('names a company by its id and shows an id the config does not hold as it is', () => {
    const name = companyNames(companies);
    expect(name('acme-eu')).toBe('Acme Europe B.V.');
    expect(name('acme-gone')).toBe('acme-gone');
  });

  it("takes a group row's company from its page, then from the record, then from the view", () => {
    expect(paymentCompanyId({ id: 'p', company_id: 'acme' }, 'acme-eu', 'acme')).toBe('acme-eu');
    expect(paymentCompanyId({ id: 'p', company_id: 'acme-eu' }, undefined, 'acme')).toBe('acme-eu');
    expect(paymentCompanyId({ id: 'p', company_id: 7 }, undefined, 'acme')).toBe('acme');
    expect(paymentCompanyId({ id: 'p' }, '', 'acme-eu')).toBe('acme-eu');
  });
});
