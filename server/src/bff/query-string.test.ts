import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { queryOf } from './query-string.ts';

describe('queryOf', () => {
  it('reads names and values, decoding + and escapes', () => {
    expect({ ...queryOf('http://h/p?limit=10&status=COMPLETED&date_from=2026-01-02T03%3A04%3A05') }).toEqual({
      limit: '10',
      status: 'COMPLETED',
      date_from: '2026-01-02T03:04:05',
    });
    expect({ ...queryOf('http://h/p?a=x+y%2Bz') }).toEqual({ a: 'x y+z' });
  });

  it('gives every value of a repeated name, in order', () => {
    expect({ ...queryOf('http://h/p?status=A&limit=1&status=B&status=C') }).toEqual({
      status: ['A', 'B', 'C'],
      limit: '1',
    });
  });

  it('takes a name without = as empty, skips empty parts, ignores a fragment', () => {
    expect({ ...queryOf('http://h/p?flag&&x=1&#y=2') }).toEqual({ flag: '', x: '1' });
    expect({ ...queryOf('http://h/p') }).toEqual({});
    expect({ ...queryOf('http://h/p?') }).toEqual({});
    expect({ ...queryOf('http://h/p?a==b') }).toEqual({ a: '=b' });
  });

  it('keeps a malformed escape as written and never touches the prototype', () => {
    expect({ ...queryOf('http://h/p?a=%E0%A4%A&b=%zz') }).toEqual({ a: '%E0%A4%A', b: '%zz' });
    const query = queryOf('http://h/p?__proto__=x&constructor=y&toString=z&__proto__=w');
    expect(Object.getPrototypeOf(query)).toBe(Object.prototype);
    expect(Object.entries(query)).toEqual([
      ['__proto__', ['x', 'w']],
      ['constructor', 'y'],
      ['toString', 'z'],
    ]);
  });

  it('agrees with URLSearchParams on any well-formed query', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.string(), fc.string()), { maxLength: 6 }), (pairs) => {
        const search = new URLSearchParams(pairs).toString();
        const expected: Record<string, string | string[]> = Object.create(null);
        for (const [name, value] of new URLSearchParams(search)) {
          const seen = expected[name];
          expected[name] =
            seen === undefined ? value : Array.isArray(seen) ? [...seen, value] : [seen, value];
        }
        expect(queryOf(`http://h/p?${search}`)).toEqual(expected);
      }),
    );
  });
});
