import { summaryQuerySchema } from '@payments/shared';
import { describe, expect, it } from 'vitest';
import {
  AMOUNT_PATTERN,
  amountsInverted,
  companyUnseen,
  DEFAULT_VIEW,
  type ListView,
  listsRows,
  listViewQuery,
  malformedStatuses,
  parseListView,
  rangeInverted,
  unknownCurrencies,
  unknownStatuses,
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
      statuses: ['COMPLETED'],
      dateFrom: '2026-03-01T14:05:09',
      dateTo: '2026-03-31T23:59:59',
      currencies: [],
      amountMin: null,
      amountMax: null,
      q: null,
      limit: 100,
      sort: null,
    });
  });

  it('an empty query is the default view', () => {
    expect(parseListView(new URLSearchParams())).toEqual(DEFAULT_VIEW);
  });

  it.each([
    ['date_from=2026-02-30T00:00:00', 'dateFrom'],
    ['date_from=2026-03-1', 'dateFrom'],
    ['date_to=01.03.2026', 'dateTo'],
    ['company=a%20b', 'company'],
  ])('drops the invalid value in %s', (query, field) => {
    expect(parseListView(new URLSearchParams(query))[field as 'company']).toBeNull();
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
      statuses: ['AWAITING', 'FAILED'],
      dateFrom: '2025-12-31T23:59:59',
      dateTo: '2026-01-01T00:00:00',
      currencies: ['EUR', 'USD'],
      amountMin: '-5',
      amountMax: '120.50',
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
    expect(listViewQuery({ ...DEFAULT_VIEW, statuses: ['FAILED'] })).toBe('?status=FAILED');
    expect(listViewQuery({ ...DEFAULT_VIEW, statuses: ['AWAITING', 'FAILED'] })).toBe(
      '?status=AWAITING,FAILED',
    );
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

  it('takes known statuses in any case, once each, first in the known order; keeps any other word as written', () => {
    const statuses = (status: string) => parseListView(new URLSearchParams({ status })).statuses;
    expect(statuses('completed')).toEqual(['COMPLETED']);
    expect(statuses('Failed,awaiting,FAILED')).toEqual(['AWAITING', 'FAILED']);
    expect(statuses('chargeback_open,FAILED')).toEqual(['FAILED', 'chargeback_open']);
    expect(statuses('AWAITING,A B,<b>')).toEqual(['AWAITING']);
    expect(statuses(`${'A'.repeat(65)}`)).toEqual([]);
    expect(unknownStatuses(parseListView(new URLSearchParams('status=AWAITING,FOO,failed,,FOO')))).toEqual([
      'FOO',
    ]);
    expect(unknownStatuses(parseListView(new URLSearchParams('status=completed')))).toEqual([]);
    expect(malformedStatuses(new URLSearchParams('status=AWAITING,A B,,FOO'))).toEqual(['A B']);
  });

  it('leaves out a well-formed code that is no currency, and names it', () => {
    const params = new URLSearchParams('currency=EUR,XYZ');
    expect(parseListView(params).currencies).toEqual(['EUR']);
    expect(unknownCurrencies(params)).toEqual(['XYZ']);
    expect(unknownCurrencies(new URLSearchParams('currency=EUR,USD'))).toEqual([]);
  });

  it('reads amount bounds as the shared schema takes them, and drops a maximum below the minimum', () => {
    const amounts = (query: string) => {
      const view = parseListView(new URLSearchParams(query));
      return [view.amountMin, view.amountMax];
    };
    expect(amounts('amount_min=100&amount_max=99.95')).toEqual(['100', null]);
    expect(amounts('amount_min=99.95&amount_max=100')).toEqual(['99.95', '100']);
    expect(amounts('amount_min=-5')).toEqual(['-5', null]);
    expect(amounts('amount_min=1e3&amount_max=1,000')).toEqual([null, null]);
    expect(amounts('amount_max=0.1234567')).toEqual([null, null]);
    // the web's rule is the BFF's: what one takes, the other does
    for (const amount of ['100', '99.95', '-5', '1e3', '1,000', '0.1234567', ' 7', '+1', '.5'])
      expect(AMOUNT_PATTERN.test(amount)).toBe(summaryQuerySchema.safeParse({ amount_min: amount }).success);
    expect(amountsInverted('10', '9.99')).toBe(true);
    expect(amountsInverted('10', '10.00')).toBe(false);
    expect(amountsInverted(null, '1')).toBe(false);
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
