import { Suspense } from 'react';
import { WaitingField } from '../../../components/waiting-field.tsx';
import { statusesText } from '../fields/field-labels.ts';
import { deferredPart } from '../load-deferred-parts.ts';
import type { ListView } from '../view/list-view.ts';

const StatusChoice = deferredPart('StatusChoice');

/** The statuses filter (in the deferred chunk); until its code arrives, it waits disabled in place. */
export function StatusFilter({
  view,
  statuses,
  onChange,
}: {
  view: ListView;
  statuses: readonly string[];
  onChange: (next: Partial<ListView>) => void;
}) {
  return (
    <Suspense
      fallback={
        <WaitingField
          label="Status"
          value={statusesText(view.statuses)}
          className="menu-button status-choice"
        />
      }
    >
      <StatusChoice view={view} statuses={statuses} onChange={onChange} />
    </Suspense>
  );
}
