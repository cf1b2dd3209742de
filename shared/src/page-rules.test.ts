import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { paymentPageSchema, paymentSchema } from './page.ts';
import { KNOWN_PAYMENT_FIELDS, paymentPageProblem, paymentProblem } from './rules.ts';

/** Values of every JSON type, plus the edge cases the field rules turn on. */
const anyValue = fc.oneof(
  fc.jsonValue(),
  fc.constantFrom('', 'x', 0, -1.5, Number.POSITIVE_INFINITY, null, true, [], {}),
);

const text = fc.string();
const finite = fc.oneof(fc.integer(), fc.double({ noDefaultInfinity: true, noNaN: true }));
/** Each known field with values of its type, nullable ones with null too; any field may be absent. */
const wellTyped = fc.record(
  {
    id: fc.oneof(fc.string({ minLength: 1 }), finite),
    company_id: text,
    status: text,
    amount: finite,
    currency: text,
    created_at: text,
    description: fc.option(text, { nil: null }),
    counterparty: fc.option(text, { nil: null }),
    reference: fc.option(text, { nil: null }),
    extra: anyValue,
  },
  { requiredKeys: [] },
);

/** Well-typed records, the same with one field given any value, and values that are no record at all. */
const anyRecord = fc.oneof(
  { weight: 3, arbitrary: wellTyped },
  {
    weight: 5,
    arbitrary: fc
      .tuple(wellTyped, fc.constantFrom(...KNOWN_PAYMENT_FIELDS), anyValue)
      .map(([record, name, value]) => ({ ...record, [name]: value })),
  },
  { weight: 1, arbitrary: anyValue },
);

describe('the zod-free payment rules', () => {
  it('judge every record as paymentSchema does', () => {
    fc.assert(
      fc.property(anyRecord, (record) => {
        expect(paymentProblem(record) === null).toBe(paymentSchema.safeParse(record).success);
      }),
      { numRuns: 2_000 },
    );
  });

  it('judge every page as paymentPageSchema does', () => {
    const page = fc.record({
      data: fc.oneof(
        { weight: 5, arbitrary: fc.array(anyRecord, { maxLength: 5 }) },
        { weight: 1, arbitrary: anyValue },
      ),
      next_cursor: fc.oneof(fc.constant(null), fc.string(), fc.integer()),
      has_more: fc.oneof(fc.boolean(), anyValue),
    });
    fc.assert(
      fc.property(page, (body) => {
        expect(paymentPageProblem(body) === null).toBe(paymentPageSchema.safeParse(body).success);
      }),
      { numRuns: 2_000 },
    );
  });

  it.each([
    [{ id: '' }, 'id is malformed'],
    [{ amount: 5 }, 'id is missing'],
    [{ id: 'p', amount: '5' }, 'amount is malformed'],
    [{ id: 'p', amount: Number.POSITIVE_INFINITY }, 'amount is malformed'],
    [{ id: 'p', reference: 7 }, 'reference is malformed'],
    [['p'], 'is not an object'],
  ])('name what is wrong with %j', (record, problem) => {
    expect(paymentProblem(record)).toBe(problem);
  });

  it('say which record of a page is wrong', () => {
    const body = { data: [{ id: 'a' }, { id: 'b', status: 3 }], next_cursor: null, has_more: false };
    expect(paymentPageProblem(body)).toBe('data[1] status is malformed');
  });
});
