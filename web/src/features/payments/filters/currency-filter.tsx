import { Suspense } from 'react';
import { WaitingField } from '../../../components/waiting-field.tsx';
import { deferredPart } from '../load-deferred-parts.ts';
import type { ListView } from '../view/list-view.ts';

const CurrencyChoice = deferredPart('CurrencyChoice');

/** The currencies filter (in the deferred chunk); until its code arrives, it waits disabled in place. */
export function CurrencyFilter({
  view,
  onChange,
}: {
  view: ListView;
  onChange: (next: Partial<ListView>) => void;
}) {
  return (
    <Suspense
      fallback={
        <WaitingField
          label="Currency"
          value={view.currencies.join(', ') || 'All currencies'}
          className="menu-button"
        />
      }
    >
      <CurrencyChoice view={view} onChange={onChange} />
    </Suspense>
  );
}
