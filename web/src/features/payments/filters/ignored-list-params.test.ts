import { describe, expect, it } from 'vitest';
import { ignoredListParams } from './ignored-list-params.ts';

describe('ignoredListParams', () => {
  it('names each value of the address that the view could not use, and nothing else', () => {
    expect(
      ignoredListParams(
        new URLSearchParams('status=PAID!&date_from=2026-02-30T00:00:00&limit=7&company=acme&group=yes'),
      ),
    ).toEqual(['group "yes"', 'status "PAID!"', 'date_from "2026-02-30T00:00:00"', 'limit "7"']);
    expect(ignoredListParams(new URLSearchParams('status=FAILED&limit=100&group=true'))).toEqual([]);
  });
});
