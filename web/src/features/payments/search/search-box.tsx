import { Suspense } from 'react';
import { deferredPart } from '../load-deferred-parts.ts';
import type { ListView } from '../view/list-view.ts';

const SearchField = deferredPart('SearchField');

/** The search field of the toolbar, in the deferred chunk; until its code arrives, it waits disabled in place. */
export function SearchBox({
  view,
  onChange,
}: {
  view: ListView;
  onChange: (next: Partial<ListView>) => void;
}) {
  return (
    <Suspense
      fallback={
        // drawn as the field will be, its head included: nothing below moves when it arrives
        <div className="field search-field">
          <span className="search-field__head">
            <span className="field__label">Search</span>
            <kbd className="hint">/</kbd>
          </span>
          <span className="search-field__row">
            <input type="search" aria-label="Search" disabled defaultValue={view.q ?? ''} />
            <button type="button" className="button" disabled>
              Search
            </button>
          </span>
        </div>
      }
    >
      <SearchField view={view} onChange={onChange} />
    </Suspense>
  );
}
