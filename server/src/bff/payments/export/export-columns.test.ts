import { describe, expect, it } from 'vitest';
import { columnsFor, exportFileName, headerOf, KNOWN_COLUMNS, recordCells } from './export-columns.ts';

describe('CSV columns', () => {
  it('are the known columns, then fields of the first page without one, then other_fields', () => {
    expect(
      columnsFor([
        { id: 'p1', fee: 1, amount: 5 },
        { id: 'p2', tags: [], fee: 2 },
      ]),
    ).toEqual([...KNOWN_COLUMNS, 'fee', 'tags', 'other_fields']);
  });

  it('keep other_fields when every record of the first page has the same fields: a later one may bring more', () => {
    const uniform = [
      { id: 'p1', amount: 5, fee: 1 },
      { fee: 2, id: 'p2', amount: 7 },
    ];
    expect(columnsFor(uniform)).toEqual([...KNOWN_COLUMNS, 'fee', 'other_fields']);
    const cells = recordCells({ id: 'p3', fee: 3, later: 'x' }, columnsFor(uniform), berlinMinor);
    expect(cells).toHaveLength(KNOWN_COLUMNS.length + 2);
    expect({ ...(cells.at(-1) as object) }).toEqual({ later: 'x' });
  });

  it('are exactly the columns the user sees, in their order, nothing added but the id when missing', () => {
    expect(columnsFor([{ id: 'p1', fee: 1 }], ['created_at', 'status', 'amount', 'fee', '@company'])).toEqual(
      ['id', 'created_at', 'status', 'amount', 'fee', '@company'],
    );
    expect(columnsFor([], ['currency', 'amount', 'id'])).toEqual(['currency', 'amount', 'id']);
  });

  it('head a field named like an object key (constructor, __proto__) with its own name, never a label', () => {
    const fields = ['id', 'constructor', '__proto__', 'toString', 'hasOwnProperty'];
    expect(headerOf(fields, { timeZone: 'UTC', amountUnit: 'minor' })).toEqual([
      'Payment ID',
      'constructor',
      '__proto__',
      'toString',
      'hasOwnProperty',
    ]);
  });

  it("are headed by the table's labels, the time's zone named; technical columns say what they hold", () => {
    const columns = columnsFor([{ id: 'p1', fee: 1 }], undefined, true);
    expect(headerOf(columns, { timeZone: 'UTC', displayZone: 'Europe/Paris', amountUnit: 'minor' })).toEqual([
      'Payment ID',
      'Company ID',
      'Company',
      'Created (Europe/Paris)',
      'Created, UTC (ISO 8601)',
      'Status',
      'Amount',
      'Currency',
      'Amount as sent',
      'Description',
      'Counterparty',
      'Reference',
      'fee',
      'Other fields',
    ]);
  });

  it("carry the company's name beside its id in a group's file, all columns or chosen ones", () => {
    const all = columnsFor([{ id: 'p1', company_name: 'own field' }], undefined, true);
    expect(all.slice(0, 3)).toEqual(['id', 'company_id', 'company_name']);
    expect(all.filter((column) => column === 'company_name')).toHaveLength(1);
    expect(columnsFor([], ['status', '@company'], true)).toEqual(['id', 'status', 'company_name']);
    expect(columnsFor([], ['status'], true)).toEqual(['id', 'status']);
    expect(columnsFor([{ id: 'p1', company_name: 'x' }])).toContain('company_name');
  });
});

describe('CSV file name', () => {
  const name = (what: {
    dateFrom?: string;
    dateTo?: string;
    zone?: string;
    status?: string;
    group?: boolean;
  }) => exportFileName({ company: 'acme', group: false, today: '2026-11-27', extension: 'csv', ...what });

  it('says "all" and the day it was made when there is no range', () => {
    expect(name({ group: true })).toBe('payments_acme_group_all_as_of_2026-11-27.csv');
  });

  it('runs an open range to the day it was made, or from the start until its end', () => {
    expect(name({ dateFrom: '2026-01-01T00:00:00' })).toBe('payments_acme_2026-01-01_to_2026-11-27.csv');
    expect(name({ dateTo: '2026-01-31T23:59:59' })).toBe('payments_acme_until_2026-01-31.csv');
    expect(
      exportFileName({
        company: 'acme eu/1',
        group: false,
        status: 'COMPLETED',
        dateFrom: '2026-01-01T00:00:00',
        dateTo: '2026-01-31T23:59:59',
        today: '2026-11-27',
        extension: 'xlsx',
      }),
    ).toBe('payments_acme-eu-1_COMPLETED_2026-01-01_to_2026-01-31.xlsx');
  });

  it('names the zone whose days the range counts, where it has one', () => {
    expect(
      name({ dateFrom: '2026-05-01T00:00:00', dateTo: '2026-05-31T23:59:59', zone: 'Europe/Berlin' }),
    ).toBe('payments_acme_2026-05-01_to_2026-05-31_Europe-Berlin.csv');
    expect(name({ group: true, zone: 'Europe/Berlin' })).toBe('payments_acme_group_all_as_of_2026-11-27.csv');
  });
});

const berlinMinor = { timeZone: 'Europe/Berlin', amountUnit: 'minor' } as const;

describe('CSV record', () => {
  const berlin: { timeZone: string; amountUnit: 'minor' | 'major' } = {
    timeZone: 'Europe/Berlin',
    amountUnit: 'minor',
  };
  const columns = [...KNOWN_COLUMNS, 'other_fields'];
  const cells = (record: Record<string, unknown>, how = berlin) =>
    Object.fromEntries(
      columns.map((column, i) => [column, recordCells({ id: 'p', ...record }, columns, how)[i]]),
    );

  it('gives the amount in major units as an exact decimal beside the raw value', () => {
    expect(cells({ amount: 10435, currency: 'EUR' })).toMatchObject({ amount: '104.35', amount_raw: 10435 });
    expect(cells({ amount: 109389, currency: 'JPY' })).toMatchObject({ amount: '109389' });
    expect(cells({ amount: 1234, currency: 'BHD' })).toMatchObject({ amount: '1.234' });
    expect(cells({ amount: '1234.50', currency: 'EUR' })).toMatchObject({
      amount: '1234.50',
      amount_raw: '1234.50',
    });
    expect(cells({ amount: 12.5, currency: 'USD' })).toMatchObject({ amount: '12.50' });
    expect(cells({ amount: 1234, currency: 'EUR' }, { ...berlin, amountUnit: 'major' })).toMatchObject({
      amount: '1234.00',
    });
  });

  it('leaves the amount empty and keeps the raw value when it cannot be read as money', () => {
    expect(cells({ amount: '12,50', currency: 'EUR' })).toMatchObject({ amount: null, amount_raw: '12,50' });
    expect(cells({ amount: { value: 1 }, currency: 'EUR' })).toMatchObject({ amount: null });
    expect(cells({ currency: 'EUR' })).toMatchObject({ amount: null, amount_raw: undefined });
  });

  it('writes created_at with the configured zone offset, and the same instant in UTC', () => {
    expect(cells({ created_at: '2026-07-01T12:00:00' })).toMatchObject({
      created_at: '2026-07-01T12:00:00+02:00',
      created_at_utc: '2026-07-01T10:00:00.000Z',
    });
    expect(cells({ created_at: '2026-01-15T08:15:30.123Z' })).toMatchObject({
      created_at: '2026-01-15T09:15:30.123+01:00',
      created_at_utc: '2026-01-15T08:15:30.123Z',
    });
    expect(cells({ created_at: 'yesterday' })).toMatchObject({ created_at: 'yesterday', created_at_utc: '' });
  });

  it("writes a group row's company name beside its id; a record's own company_name or amount_raw goes to other_fields", () => {
    const groupColumns = columnsFor([], undefined, true);
    const how = { ...berlin, companyNames: new Map([['acme-eu', 'ACME Europe']]) };
    const record = { id: 'p', amount: 1, company_name: 'theirs', amount_raw: 'theirs too' };
    const row = recordCells(record, groupColumns, how, 'acme-eu');
    expect(row.slice(0, 3)).toEqual(['p', 'acme-eu', 'ACME Europe']);
    expect({ ...(row.at(-1) as object) }).toEqual({ company_name: 'theirs', amount_raw: 'theirs too' });
    expect(
      recordCells({ id: 'p', company_id: 'elsewhere' }, groupColumns, how, 'acme-eu')[2],
    ).toBeUndefined();
    // Outside a group there is no derived name: a column of that name is the record's own field.
    expect(recordCells(record, ['id', 'company_name'], how)).toEqual(['p', 'theirs']);
  });

  it('keeps every field without a column, of any type, in other_fields', () => {
    const other = cells({ metadata: { a: [1] }, tags: ['x'] }).other_fields as Record<string, unknown>;
    expect({ ...other }).toEqual({ metadata: { a: [1] }, tags: ['x'] });
  });
});

describe('CSV columns named like what every object inherits', () => {
  it.each(['__proto__', 'constructor', 'toString', 'hasOwnProperty', '__defineGetter__', 'valueOf'])(
    'write a record’s own %s field, or nothing: never an inherited function or prototype',
    (name) => {
      const columns = columnsFor([], [name]);
      expect(recordCells({ id: 'p1' }, columns, { timeZone: 'UTC', amountUnit: 'minor' })).toEqual([
        'p1',
        undefined,
      ]);
      const own = JSON.parse(`{"id":"p2",${JSON.stringify(name)}:"kept"}`);
      expect(recordCells(own, columns, { timeZone: 'UTC', amountUnit: 'minor' })).toEqual(['p2', 'kept']);
    },
  );
});
