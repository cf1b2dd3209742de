import { describe, expect, it } from 'vitest';
import { paymentPageSchema, paymentSchema } from './page.ts';
import { KNOWN_PAYMENT_FIELDS, pageEnvelopeProblem } from './rules.ts';

describe('page envelope rules', () => {
  it('rule 1: has_more=false with a string cursor is refused', () => {
    expect(paymentPageSchema.safeParse({ data: [], has_more: false, next_cursor: 'abc' }).success).toBe(
      false,
    );
  });

  it('rule 2: has_more=true with a null cursor is refused', () => {
    expect(paymentPageSchema.safeParse({ data: [], has_more: true, next_cursor: null }).success).toBe(false);
  });

  it('accepts both consistent shapes and keeps unknown record fields', () => {
    expect(paymentPageSchema.parse({ data: [], has_more: false, next_cursor: null }).has_more).toBe(false);
    const page = paymentPageSchema.parse({
      data: [{ id: 'p1', extra: 7 }],
      has_more: true,
      next_cursor: 'c',
    });
    expect(page.data[0]).toEqual({ id: 'p1', extra: 7 });
  });
});

describe('the zod-free rules the browser uses', () => {
  it('name exactly the fields the payment schema types, in its order', () => {
    expect(Object.keys(paymentSchema.shape)).toEqual([...KNOWN_PAYMENT_FIELDS]);
  });

  it.each([
    [{ data: [], next_cursor: null, has_more: false }],
    [{ data: [{ id: 1 }], next_cursor: 'c', has_more: true }],
    [{ data: [], next_cursor: 'c', has_more: false }],
    [{ data: [], next_cursor: null, has_more: true }],
    [{ data: [], next_cursor: '', has_more: true }],
    [{ data: 'x', next_cursor: null, has_more: false }],
    [{ data: [], next_cursor: null, has_more: 'false' }],
    [{ data: [], next_cursor: 7, has_more: true }],
    [null],
  ])('judge the envelope %j as the schema does', (body) => {
    expect(pageEnvelopeProblem(body) === null).toBe(paymentPageSchema.safeParse(body).success);
  });
});
