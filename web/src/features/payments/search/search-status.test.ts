import { describe, expect, it } from 'vitest';
import type { SearchProgress } from '../list/search-cache.ts';
import { searchedSoFar, searchHeadline } from './search-status.ts';

const page = (n: number) => ({
  data: Array.from({ length: n }, (_, i) => ({ id: i })),
  next_cursor: null,
  has_more: false,
});
const progress = (over: Partial<SearchProgress>): SearchProgress => ({
  estimate: null,
  companies: 1,
  read: 0,
  pages: [],
  done: null,
  ...over,
});

describe('what a search says of itself', () => {
  it('counts the matches of every event while it reads, then as they ended', () => {
    const twoEvents = progress({ pages: [page(2), page(1)], read: 12_400 });
    expect(searchHeadline(null, 'running')).toBe('Searching…');
    expect(searchHeadline(twoEvents, 'running')).toBe('Searching… 3 matches so far');
    expect(searchHeadline({ ...twoEvents, done: { found: 3, complete: true } }, 'done')).toBe('3 matches');
    expect(searchHeadline(progress({ pages: [page(1)] }), 'stopped')).toBe('Stopped: 1 match');
    expect(searchHeadline(progress({ done: { found: 0, complete: true } }), 'done')).toBe('0 matches');
  });

  it('says when it stopped at its limit of matches rather than at the end of the view', () => {
    const capped = progress({ pages: [page(5000)], done: { found: 5000, complete: false } });
    expect(searchHeadline(capped, 'done')).toBe(
      'The first 5,000 matches: narrow the search to see every one',
    );
  });

  it('says how far it read, of the estimate while reading, and without one when none was at hand', () => {
    expect(searchedSoFar(progress({ read: 12_400, estimate: 40_000 }), 'running')).toBe(
      'searched 12,400 of ~40,000 rows',
    );
    expect(searchedSoFar(progress({ read: 12_400 }), 'running')).toBe('searched 12,400 rows');
    expect(searchedSoFar(progress({ read: 1 }), 'stopped')).toBe('searched 1 row');
    // the estimate was counted a while ago: more rows than it said are read, and the end says what was read
    expect(searchedSoFar(progress({ read: 40_012, estimate: 40_000 }), 'running')).toBe(
      'searched 40,012 of ~40,012 rows',
    );
    expect(searchedSoFar(progress({ read: 40_012, estimate: 40_000, companies: 8 }), 'done')).toBe(
      'searched 40,012 rows in 8 companies',
    );
  });
});
