import type { AppConfig } from '@payments/shared';
import { Suspense } from 'react';
import { deferredPart } from '../load-deferred-parts.ts';
import type { ListView } from '../view/list-view.ts';
import { RefreshButton } from './refresh-button.tsx';

const Freshness = deferredPart('Freshness');

/** "Updated 10:42" (and newer payments to show) once its code is in, and Refresh: both start the list over. */
export function FreshnessControls({ view, config }: { view: ListView; config: AppConfig }) {
  return (
    <>
      {/* room for "Updated 10:42" from the start: its arrival does not rewrap the toolbar */}
      <span className="freshness-slot">
        <Suspense fallback={null}>
          <Freshness view={view} pollSeconds={config.freshness_poll_seconds} timeZone={config.time_zone} />
        </Suspense>
      </span>
      <RefreshButton view={view} />
    </>
  );
}
