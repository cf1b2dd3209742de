import { Suspense } from 'react';
import { WaitingField } from '../../../components/waiting-field.tsx';
import { statusesText } from '../fields/field-labels.ts';
import { deferredPart } from '../load-deferred-parts.ts';
import type { StatusFilterProps } from './status-menu.tsx';

const StatusChoice = deferredPart('StatusChoice');

/** The statuses filter (in the deferred chunk); until its code arrives, it waits disabled in place. */
export function StatusFilter(props: StatusFilterProps) {
  return (
    <Suspense
      fallback={
        <WaitingField
          label="Status"
          value={statusesText(props.view.statuses)}
          className="menu-button status-choice"
        />
      }
    >
      <StatusChoice {...props} />
    </Suspense>
  );
}
