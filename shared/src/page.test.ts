import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { describeIssue, HAS_MORE_RULE, paymentPageSchema, paymentSchema } from './page.ts';

describe('page envelope', () => {
  it('rule 1: has_more=false with a string cursor is refused', () => {
    const result = paymentPageSchema.safeParse({ data: [], has_more: false, next_cursor: 'abc' });
    expect(result.success).toBe(false);
    expect(describeIssue(result.error?.issues[0], {})).toBe(HAS_MORE_RULE);
  });

  it('rule 2: has_more=true with a null cursor is refused', () => {
    expect(paymentPageSchema.safeParse({ data: [], has_more: true, next_cursor: null }).success).toBe(false);
  });

  it('accepts both consistent shapes, extra envelope members and any member order', () => {
    expect(paymentPageSchema.safeParse({ data: [], has_more: false, next_cursor: null }).success).toBe(true);
    const body = JSON.parse('{"has_more":true,"meta":{"v":1},"next_cursor":"c+/=~","data":[{"id":1}]}');
    expect(paymentPageSchema.safeParse(body).success).toBe(true);
  });

  it.each([
    [{ data: 'x', next_cursor: null, has_more: false }, 'data is not an array'],
    [{ data: [], next_cursor: null, has_more: 'false' }, 'has_more is not a boolean'],
    [{ data: [], next_cursor: 7, has_more: true }, 'next_cursor is not a string'],
    [{ data: [], next_cursor: null }, 'has_more is missing'],
    [{ data: [{ id: 'a' }, {}], next_cursor: null, has_more: false }, 'data[1].id is missing'],
    [{ data: [{ id: '' }], next_cursor: null, has_more: false }, 'data[0].id is malformed'],
    [
      { data: [{ id: true }], next_cursor: null, has_more: false },
      'data[0].id is neither a non-empty string nor a number',
    ],
    [{ data: [7], next_cursor: null, has_more: false }, 'data[0] is not an object'],
    [null, 'the page is not an object'],
  ])('names where %j breaks, by structure only', (body, where) => {
    const result = paymentPageSchema.safeParse(body);
    expect(result.success).toBe(false);
    expect(describeIssue(result.error?.issues[0], body)).toBe(where);
  });

  it('never puts a value of the record in its description', () => {
    const result = paymentPageSchema.safeParse({
      data: [{ id: { secret: 'IBAN DE89 3704' }, amount: 'IBAN DE89 3704' }],
      next_cursor: null,
      has_more: false,
    });
    const body = { data: [{ id: { secret: 'IBAN DE89 3704' }, amount: 'IBAN DE89 3704' }] };
    expect(describeIssue(result.error?.issues[0], body)).not.toMatch(/IBAN|DE89/);
  });
});

describe('payment record', () => {
  it('is any object with a non-empty string or a finite number as id, every other member of any type', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.string({ minLength: 1 }),
          fc.integer(),
          fc.double({ noNaN: true, noDefaultInfinity: true }),
        ),
        fc.dictionary(fc.string(), fc.jsonValue()),
        (id, rest) => {
          expect(paymentSchema.safeParse({ ...rest, id }).success).toBe(true);
        },
      ),
    );
  });

  it('keeps the known fields whatever their type: a decimal-string amount, an object counterparty', () => {
    const record = {
      id: 'p',
      amount: '1234.50',
      counterparty: { name: 'Ana' },
      status: 'PARTIALLY_REFUNDED',
    };
    expect(paymentSchema.parse(record)).toEqual(record);
  });
});
