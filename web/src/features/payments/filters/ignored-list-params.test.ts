import { describe, expect, it } from 'vitest';
import { ignoredListParams } from './ignored-list-params.ts';

describe('ignoredListParams', () => {
  it('names each value of the address that the view could not use, and nothing else', () => {
    expect(
      ignoredListParams(
        new URLSearchParams(
          'status=PAID!&date_from=2026-02-30T00:00:00&limit=7&company=acme&group=yes&currency=EUR,EURO',
        ),
      ),
    ).toEqual([
      'group "yes"',
      'status "PAID!"',
      'date_from "2026-02-30T00:00:00"',
      'currency "EUR,EURO"',
      'limit "7"',
    ]);
    expect(
      ignoredListParams(
        new URLSearchParams('status=completed&limit=100&group=true&date_to=2026-05-01&currency=eur,USD&q=x'),
      ),
    ).toEqual([]);
  });

  it('names a status that is no word or an unknown currency alone, keeping the others, and a maximum below the minimum', () => {
    expect(
      ignoredListParams(
        new URLSearchParams('status=AWAITING,A B,FOO&currency=EUR,XYZ&amount_min=100&amount_max=5'),
      ),
    ).toEqual([
      'status "A B"',
      'currency "XYZ" (unknown currency)',
      'amount_max "5" (below amount_min "100")',
    ]);
    expect(ignoredListParams(new URLSearchParams('amount_min=abc&amount_max=5'))).toEqual([
      'amount_min "abc"',
    ]);
    expect(ignoredListParams(new URLSearchParams('status=awaiting,failed&amount_min=-5'))).toEqual([]);
  });

  it('names a search too long to send, and says nothing of an empty one', () => {
    expect(ignoredListParams(new URLSearchParams({ q: 'x'.repeat(201) }))).toEqual([`q "${'x'.repeat(40)}"`]);
    expect(ignoredListParams(new URLSearchParams('q=%20'))).toEqual([]);
  });
});
