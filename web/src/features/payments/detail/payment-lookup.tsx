import type { Payment } from '@payments/shared';
import { useEffect } from 'react';
import { errorMessage, retryCanHelp } from '../../../lib/api-error.ts';
import { paymentCompanyId } from '../fields/company-names.ts';
import { formatCount } from '../fields/number-text.ts';
import { useFind } from '../list/walk-streams.ts';

/** A payment found in one of the user's companies. */
export interface FoundPayment {
  row: Payment;
  company: string;
}

interface Props {
  paymentId: string;
  /** A company's name by its id. */
  companyName: (id: string) => string;
  onFound: (found: FoundPayment) => void;
}

function payments(n: number): string {
  return `${formatCount(n)} ${n === 1 ? 'payment' : 'payments'}`;
}

/**
 * A payment the view does not hold, looked for in every company the user may see, side by side
 * (`GET /api/payments/find`): how far the looking has come, then the payment, or where and how far it looked.
 */
export function PaymentLookup({ paymentId, companyName, onFound }: Props) {
  const find = useFind(paymentId);
  const progress = find.data ?? null;
  const match = progress?.pages[0];
  const row = match?.data[0];
  const company = row && paymentCompanyId(row, match?.company_ids?.[0], '');
  useEffect(() => {
    if (row !== undefined && company) onFound({ row, company });
  }, [row, company, onFound]);

  const companies = progress?.companies ?? 0;
  const looked = `Looked in ${formatCount(companies)} ${companies === 1 ? 'company' : 'companies'}, ${payments(progress?.read ?? 0)}.`;
  if (row !== undefined)
    return (
      <p role="status" className="hint">
        Found in {company ? companyName(company) : 'a company of yours'}
      </p>
    );
  if (find.isError)
    return (
      <div role="alert" className="panel panel--error">
        <p>This payment could not be looked for: {errorMessage(find.error)}</p>
        {retryCanHelp(find.error) && (
          <button type="button" className="button" onClick={() => void find.refetch()}>
            Retry
          </button>
        )}
      </div>
    );
  if (progress?.done)
    return (
      <div role="status" className="panel" data-testid="payment-not-found">
        <p>
          Payment {paymentId} is in none of the companies you may see. {looked}
        </p>
      </div>
    );
  return (
    <p role="status" data-testid="payment-lookup">
      {find.fetchStatus === 'fetching' ? (
        <>
          Looking for this payment in every company you may see…{' '}
          <span className="hint">
            {payments(progress?.read ?? 0)} read
            {companies > 0 && ` in ${formatCount(companies)} ${companies === 1 ? 'company' : 'companies'}`}
          </span>
        </>
      ) : (
        <>
          The looking stopped before it ended.{' '}
          <button type="button" className="button" onClick={() => void find.refetch()}>
            Look again
          </button>
        </>
      )}
    </p>
  );
}
