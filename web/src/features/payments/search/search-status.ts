import { formatCount } from '../fields/number-text.ts';
import type { SearchProgress } from '../list/search-cache.ts';

/** Where a search stands: reading the view, ended (all read, or its limit of matches reached), or stopped. */
export type SearchState = 'running' | 'done' | 'stopped';

function matches(n: number): string {
  return `${formatCount(n)} ${n === 1 ? 'match' : 'matches'}`;
}

/** What the search has found, in one short line that changes only when its state or the matches change. */
export function searchHeadline(progress: SearchProgress | null, state: SearchState): string {
  const found = progress?.pages.reduce((sum, page) => sum + page.data.length, 0) ?? 0;
  if (state === 'running') return found === 0 ? 'Searching…' : `Searching… ${matches(found)} so far`;
  if (state === 'stopped') return `Stopped: ${matches(found)}`;
  if (progress?.done?.complete === false)
    return `The first ${matches(found)}: narrow the search to see every one`;
  return matches(found);
}

/** How far the search looked: "searched 12,400 of ~40,000 rows", or without the estimate when none was at hand. */
export function searchedSoFar(progress: SearchProgress | null, state: SearchState): string {
  const read = progress?.read ?? 0;
  const estimate = progress?.estimate ?? null;
  // an estimate is a count of some time ago: once the walk ended, what it read is the figure
  const of = estimate !== null && state !== 'done' ? ` of ~${formatCount(Math.max(estimate, read))}` : '';
  const companies =
    (progress?.companies ?? 0) > 1 ? ` in ${formatCount(progress?.companies ?? 0)} companies` : '';
  return `searched ${formatCount(read)}${of} ${read === 1 && of === '' ? 'row' : 'rows'}${companies}`;
}
