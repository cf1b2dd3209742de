import type { AppConfig } from '@payments/shared';
import { type ReactNode, Suspense, useEffect } from 'react';
import { firstViewIsDrawn } from '../../../lib/first-view.ts';
import { deferredPart } from '../load-deferred-parts.ts';
import type { ListView } from '../view/list-view.ts';

const SearchResults = deferredPart('SearchResults');

interface Props {
  view: ListView;
  /** Who is signed in: the table keeps each user's column layout. */
  username: string;
  config: AppConfig;
  summary: ReactNode;
  onChange: (next: Partial<ListView>) => void;
}

/** The matches of the view's search, in place of its list. */
export function SearchMatches(props: Props) {
  // the matches are themselves a deferred part: a view that opens on a search asks for the chunk at once
  useEffect(() => firstViewIsDrawn(), []);
  return (
    <Suspense
      fallback={
        <section className="payments" aria-label="Payments list" aria-busy="true">
          <div className="payments__tools">{props.summary}</div>
          <p className="payments__footer" role="status">
            Searching…
          </p>
        </section>
      }
    >
      <SearchResults {...props} />
    </Suspense>
  );
}
