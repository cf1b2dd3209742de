import type { AppConfig } from '@payments/shared';
import { Suspense } from 'react';
import { paths } from '../../../config/paths.ts';
import { useMatch } from '../../../lib/history-router.tsx';
import { deferredPart } from '../load-deferred-parts.ts';
import type { ListView } from '../view/list-view.ts';

const PaymentDetail = deferredPart('PaymentDetail');

/** The drawer of the payment the address names (`/payments/<id>`), if it names one; its code is deferred. */
export function DeepLinkedPayment({ view, config }: { view: ListView; config: AppConfig }) {
  const paymentId = useMatch(paths.paymentPattern)?.params.paymentId;
  if (paymentId === undefined) return null;
  return (
    <Suspense fallback={null}>
      <PaymentDetail paymentId={paymentId} view={view} config={config} />
    </Suspense>
  );
}
