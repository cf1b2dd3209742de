import type { Company, Payment } from '@payments/shared';

/** A company's name by its id, from the config's companies; an id the config does not hold is shown as it is. */
export function companyNames(companies: readonly Company[]): (id: string) => string {
  const names = new Map(companies.map((company) => [company.id, company.name]));
  return (id) => names.get(id) ?? id;
}

/**
 * The company a payment is from: the one a group's page named for it, else the record's own `company_id`, else
 * the company the view shows (a single company's list holds only its own payments).
 */
export function paymentCompanyId(
  payment: Payment,
  listedCompanyId: string | undefined,
  viewCompanyId: string,
): string {
  if (listedCompanyId !== undefined && listedCompanyId !== '') return listedCompanyId;
  return typeof payment.company_id === 'string' && payment.company_id !== ''
    ? payment.company_id
    : viewCompanyId;
}
