import { describe, expect, it } from 'vitest';
import { paymentPageSchema } from './page.ts';

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
