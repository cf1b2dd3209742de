import { Suspense } from 'react';
import { deferredPart } from '../load-deferred-parts.ts';
import type { ListView } from '../view/list-view.ts';

const ExportMenu = deferredPart('ExportMenu');

/** The export of the view, in the deferred chunk; until its code arrives, its button waits disabled in place. */
export function ExportControls({ view, statusSlot }: { view: ListView; statusSlot: HTMLElement | null }) {
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
      <ExportMenu view={view} statusSlot={statusSlot} />
    </Suspense>
  );
}
