import { Suspense } from 'react';
import { deferredPart } from '../load-deferred-parts.ts';
import type { ListView } from '../view/list-view.ts';

const ExportButton = deferredPart('ExportButton');

/** The export of the view, in the deferred chunk; until its code arrives, its controls wait disabled in place. */
export function ExportControls({
  view,
  timeZone,
  disabled,
}: {
  view: ListView;
  timeZone: string;
  disabled: boolean;
}) {
  return (
    <Suspense
      fallback={
        // the controls as they will be: nothing moves when they arrive
        <div className="export">
          <button type="button" className="button" disabled>
            Export CSV
          </button>
          <label className="export__columns">
            <input type="checkbox" disabled /> All columns
          </label>
        </div>
      }
    >
      <ExportButton view={view} timeZone={timeZone} disabled={disabled} />
    </Suspense>
  );
}
