import { describe, expect, it } from 'vitest';
import {
  companyUnseen,
  DEFAULT_VIEW,
  type ListView,
  listsRows,
  listViewQuery,
  parseListView,
  rangeInverted,
} from './list-view.ts';

describe('URL ↔ list view', () => {
  it('reads every filter from the query', () => {
    const view = parseListView(
      new URLSearchParams(
        'company=acme-eu&group=true&status=COMPLETED&date_from=2026-03-01T14:05:09&date_to=2026-03-31T23:59:59&limit=100',
      ),
    );
    expect(view).toEqual({
      company: 'acme-eu',
      group: true,
      status: 'COMPLETED',
      dateFrom: '2026-03-01T14:05:09',
      dateTo: '2026-03-31T23:59:59',
      currencies: [],
      q: null,
      limit: 100,
      sort: null,
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
    ['date_from=2026-03-1', 'dateFrom'],
    ['date_to=01.03.2026', 'dateTo'],
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
    const view: ListView = {
      company: 'c-1',
      group: true,
      status: 'AWAITING',
      dateFrom: '2025-12-31T23:59:59',
      dateTo: '2026-01-01T00:00:00',
      currencies: ['EUR', 'USD'],
      q: 'Müller & Söhne, 100..200',
      limit: 25,
      sort: 'amount:asc',
    };
    expect(parseListView(new URLSearchParams(listViewQuery(view)))).toEqual(view);
  });

  it('reads the orders the BFF knows, and the default order or an unknown one as the default', () => {
    const sortOf = (sort: string) => parseListView(new URLSearchParams({ sort })).sort;
    expect(sortOf('amount:desc')).toBe('amount:desc');
    expect(sortOf('counterparty:asc')).toBe('counterparty:asc');
    expect(sortOf('created_at:desc')).toBeNull();
    expect(sortOf('fee:desc')).toBeNull();
    expect(listViewQuery({ ...DEFAULT_VIEW, sort: 'status:desc' })).toBe('?sort=status:desc');
  });

  it('leaves defaults out of the query so links stay short', () => {
    expect(listViewQuery(DEFAULT_VIEW)).toBe('');
    expect(listViewQuery({ ...DEFAULT_VIEW, status: 'FAILED' })).toBe('?status=FAILED');
  });

  it('is a group view only for group=true', () => {
    expect(parseListView(new URLSearchParams('company=acme&group=true')).group).toBe(true);
    expect(parseListView(new URLSearchParams('company=acme&group=1')).group).toBe(false);
    expect(listViewQuery({ ...DEFAULT_VIEW, company: 'acme', group: true })).toBe('?company=acme&group=true');
  });

  it('keeps a To before From, for the date fields to say so, and asks nothing for it', () => {
    const view = parseListView(
      new URLSearchParams('date_from=2026-03-02T00:00:00&date_to=2026-03-01T23:59:59'),
    );
    expect([view.dateFrom, view.dateTo]).toEqual(['2026-03-02T00:00:00', '2026-03-01T23:59:59']);
    expect(rangeInverted(view)).toBe(true);
    expect(rangeInverted({ ...view, dateTo: '2026-03-02T00:00:00' })).toBe(false);
    expect(rangeInverted({ ...view, dateTo: null })).toBe(false);
  });

  it('reads dates as the date fields do: a date alone is the start of its day for From, its end for To', () => {
    const view = parseListView(new URLSearchParams('date_from=2026-05-01&date_to=2026-05-31 12:30'));
    expect([view.dateFrom, view.dateTo]).toEqual(['2026-05-01T00:00:00', '2026-05-31T12:30:59']);
  });

  it('takes a known status in any case as that status, and keeps any other as written', () => {
    expect(parseListView(new URLSearchParams('status=completed')).status).toBe('COMPLETED');
    expect(parseListView(new URLSearchParams('status=Failed')).status).toBe('FAILED');
    expect(parseListView(new URLSearchParams('status=chargeback_open')).status).toBe('chargeback_open');
  });

  it('reads currencies comma-joined, in any case, once each and sorted; one bad code drops the filter', () => {
    expect(parseListView(new URLSearchParams('currency=usd,EUR,usd')).currencies).toEqual(['EUR', 'USD']);
    expect(parseListView(new URLSearchParams('currency=EUR,EURO')).currencies).toEqual([]);
    expect(listViewQuery({ ...DEFAULT_VIEW, currencies: ['EUR', 'USD'] })).toBe('?currency=EUR,USD');
  });

  it('takes a search as typed, trimmed; an empty or overlong one is no search', () => {
    expect(parseListView(new URLSearchParams('q=%20Caf%C3%A9%20')).q).toBe('Café');
    expect(parseListView(new URLSearchParams('q=%20')).q).toBeNull();
    expect(parseListView(new URLSearchParams({ q: 'x'.repeat(201) })).q).toBeNull();
  });

  it('knows a company the user may not see from the companies the config lists', () => {
    const companies = [{ id: 'acme' }, { id: 'acme-eu' }];
    expect(companyUnseen({ ...DEFAULT_VIEW, company: 'globex' }, companies)).toBe(true);
    expect(companyUnseen({ ...DEFAULT_VIEW, company: 'acme-eu' }, companies)).toBe(false);
    expect(companyUnseen(DEFAULT_VIEW, companies)).toBe(false);
  });

  it('asks for a list neither under a search nor for an inverted range', () => {
    expect(listsRows(DEFAULT_VIEW)).toBe(true);
    expect(listsRows({ ...DEFAULT_VIEW, q: 'x' })).toBe(false);
    expect(
      listsRows({ ...DEFAULT_VIEW, dateFrom: '2026-01-02T00:00:00', dateTo: '2026-01-01T00:00:00' }),
    ).toBe(false);
  });
});
