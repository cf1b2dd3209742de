import { describe, expect, it } from 'vitest';
import { DEFAULT_VIEW, dateTimeFromInput, listViewQuery, parseListView } from './list-search-params.ts';

describe('URL ↔ list view', () => {
  it('reads every filter from the query', () => {
    const view = parseListView(
      new URLSearchParams('company=acme-eu&status=COMPLETED&date_from=2026-03-01T14:05:09&limit=100'),
    );
    expect(view).toEqual({
      company: 'acme-eu',
      status: 'COMPLETED',
      dateFrom: '2026-03-01T14:05:09',
      limit: 100,
    });
  });

  it('an empty query is the default view', () => {
    expect(parseListView(new URLSearchParams())).toEqual(DEFAULT_VIEW);
  });

  it.each([
    ['status=A%20B', 'status'],
    [`status=${'A'.repeat(65)}`, 'status'],
    ['status=%3Cb%3E', 'status'],
    ['date_from=2026-02-30T00:00:00', 'dateFrom'],
    ['date_from=2026-03-01', 'dateFrom'],
    ['company=a%20b', 'company'],
  ])('drops the invalid value in %s', (query, field) => {
    expect(parseListView(new URLSearchParams(query))[field as 'status']).toBeNull();
  });

  it.each(['0', '33', '101', '50.0', '1e2', 'abc', ''])(
    'falls back to the default page size for limit=%j',
    (limit) => {
      expect(parseListView(new URLSearchParams({ limit })).limit).toBe(DEFAULT_VIEW.limit);
    },
  );

  it('round-trips a view through the query unchanged', () => {
    const view = { company: 'c-1', status: 'AWAITING', dateFrom: '2025-12-31T23:59:59', limit: 25 };
    expect(parseListView(new URLSearchParams(listViewQuery(view)))).toEqual(view);
  });

  it('leaves defaults out of the query so links stay short', () => {
    expect(listViewQuery(DEFAULT_VIEW)).toBe('');
    expect(listViewQuery({ ...DEFAULT_VIEW, status: 'FAILED' })).toBe('?status=FAILED');
  });

  it('adds the seconds a datetime-local input drops and refuses impossible dates', () => {
    expect(dateTimeFromInput('2026-03-01T14:05')).toBe('2026-03-01T14:05:00');
    expect(dateTimeFromInput('2026-03-01T14:05:09')).toBe('2026-03-01T14:05:09');
    expect(dateTimeFromInput('2026-02-30T14:05:09')).toBeNull();
    expect(dateTimeFromInput('')).toBeNull();
  });
});
