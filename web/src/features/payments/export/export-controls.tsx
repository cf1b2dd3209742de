import { Suspense } from 'react';
import { deferredPart } from '../load-deferred-parts.ts';
import type { ListView } from '../view/list-view.ts';

const ExportMenu = deferredPart('ExportMenu');

/** The export of the view, in the deferred chunk; until its code arrives, its button waits disabled in place. */
export function ExportControls({
  view,
  statusSlot,
  timeZone,
  disabled,
}: {
  view: ListView;
  statusSlot: HTMLElement | null;
  /** The company's zone; times are written in the one the user reads them in. */
  timeZone: string;
  /** No export can be made of the view (a company the user may not see). */
  disabled: boolean;
}) {
  return (
    <Suspense
      fallback={
        // the button as it will be: nothing moves when it arrives
        <div className="export">
          <button type="button" className="button export__button" disabled>
            Export{' '}
            <span aria-hidden="true" className="caret">
              ▾
            </span>
          </button>
        </div>
      }
    >
      <ExportMenu view={view} statusSlot={statusSlot} timeZone={timeZone} disabled={disabled} />
    </Suspense>
  );
}
