import type { AppConfig } from '@payments/shared';
import { Suspense } from 'react';
import { useOutletContext, useParams } from 'react-router';
import { deferredPart } from '../load-deferred-parts.ts';
import type { ListView } from '../view/list-view.ts';

const PaymentDetail = deferredPart('PaymentDetail');

/**
 * The drawer of the payment the address names (`/payments/<id>`), the list route's child: drawn in its outlet,
 * with the list's view and config; its code is deferred.
 */
export function DeepLinkedPayment() {
  const { view, config } = useOutletContext<{ view: ListView; config: AppConfig }>();
  const { paymentId } = useParams();
  if (paymentId === undefined) return null;
  return (
    <Suspense fallback={null}>
      <PaymentDetail paymentId={paymentId} view={view} config={config} />
    </Suspense>
  );
}
