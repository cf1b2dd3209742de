import { describe, expect, it } from 'vitest';
import {
  exportQuerySchema,
  isDateTime,
  LIMIT_DEFAULT,
  listQuerySchema,
  summaryQuerySchema,
} from './index.ts';

describe('isDateTime', () => {
  it.each([
    '2026-01-31T23:59:59',
    '2024-02-29T00:00:00',
    '1999-12-31T12:30:00',
    '0004-02-29T00:00:00',
    '0099-12-31T23:59:59',
  ])('accepts the real date-time %s', (value) => {
    expect(isDateTime(value)).toBe(true);
  });

  it.each([
    '2026-02-30T00:00:00',
    '2025-02-29T00:00:00',
    '0001-02-29T00:00:00',
    '2026-13-01T00:00:00',
    '2026-01-01T24:00:00',
    '2026-01-01T00:60:00',
    '2026-01-01T00:00:60',
    '2026-01-01',
    '2026-01-01T00:00:00Z',
    '2026-01-01T00:00:00.000',
    '2026-01-01 00:00:00',
    ' 2026-01-01T00:00:00',
    '2026-01-01T00:00:00\n',
  ])('refuses %j', (value) => {
    expect(isDateTime(value)).toBe(false);
  });
});

describe('listQuerySchema', () => {
  it(`defaults limit to ${LIMIT_DEFAULT}`, () => {
    expect(listQuerySchema.parse({})).toEqual({ limit: LIMIT_DEFAULT });
  });

  it.each(['1', '100', '050'])('accepts limit %s', (limit) => {
    expect(listQuerySchema.parse({ limit }).limit).toBe(Number(limit));
  });

  it.each(['0', '101', '-1', '1.5', '1e2', '', 'abc', '9999', ' 5'])('refuses limit %j', (limit) => {
    expect(listQuerySchema.safeParse({ limit }).success).toBe(false);
  });

  it.each([
    'COMPLETED',
    'PARTIALLY_REFUNDED_PENDING_REVIEW',
    'chargeback_open',
    'v2.settled',
    'A'.repeat(64),
  ])('accepts status %j: the full set of statuses is not specified', (status) => {
    expect(listQuerySchema.safeParse({ status }).success).toBe(true);
  });

  it('refuses a parameter it does not know', () => {
    expect(listQuerySchema.safeParse({ page_number: '2' }).success).toBe(false);
  });

  it.each(['COMPLETED ', 'A'.repeat(65), 'COMPLETED\u0000', '', 'a b', '<script>', 'x;y'])(
    'refuses status %j',
    (status) => {
      expect(listQuerySchema.safeParse({ status }).success).toBe(false);
    },
  );
});

describe('the view filters of issue 36', () => {
  it('takes several statuses separated by commas, as the currency filter does', () => {
    expect(listQuerySchema.parse({ status: 'AWAITING,FAILED' }).status).toBe('AWAITING,FAILED');
    expect(listQuerySchema.safeParse({ status: 'AWAITING,' }).success).toBe(false);
    expect(listQuerySchema.safeParse({ status: 'AWAITING FAILED' }).success).toBe(false);
  });

  it('names a currency code no one uses rather than listing nothing', () => {
    const parsed = listQuerySchema.safeParse({ currency: 'EUR,XQQ' });
    expect(parsed.success).toBe(false);
    expect(JSON.stringify(parsed.error?.issues)).toContain('XQQ is not a currency code');
    expect(listQuerySchema.safeParse({ currency: 'EUR,USD' }).success).toBe(true);
  });

  it('takes an amount range in major units and refuses one whose maximum is below its minimum', () => {
    expect(listQuerySchema.parse({ amount_min: '10', amount_max: '99.95' })).toMatchObject({
      amount_min: '10',
      amount_max: '99.95',
    });
    const reversed = listQuerySchema.safeParse({ amount_min: '100', amount_max: '99.95' });
    expect(reversed.success).toBe(false);
    expect(reversed.error?.issues[0]?.path).toEqual(['amount_max']);
    expect(listQuerySchema.safeParse({ amount_min: '1e3' }).success).toBe(false);
  });

  it('says which bound is badly written instead of throwing when both are given', () => {
    const parsed = listQuerySchema.safeParse({ amount_min: '10', amount_max: '1,000' });
    expect(parsed.success).toBe(false);
    expect(parsed.error?.issues.map((issue) => issue.path)).toEqual([['amount_max']]);
    expect(parsed.error?.issues[0]?.message).toContain('is an amount in major units');
  });

  it('takes the agreed sorts and no other', () => {
    expect(listQuerySchema.parse({ sort: 'amount:desc' }).sort).toBe('amount:desc');
    expect(listQuerySchema.safeParse({ sort: 'amount' }).success).toBe(false);
    expect(exportQuerySchema.parse({ sort: 'counterparty:asc' }).sort).toBe('counterparty:asc');
  });

  it('counts a search in the summary', () => {
    expect(summaryQuerySchema.parse({ q: 'acme', status: 'FAILED' })).toEqual({
      q: 'acme',
      status: 'FAILED',
    });
  });
});
