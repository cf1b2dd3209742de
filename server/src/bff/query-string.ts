import type { RawQuery } from './list-params.ts';

/**
 * The query of a request URL as name → value, or → every value in order when a name repeats. Names and values are
 * decoded as HTML forms encode them (`+` is a space, then `%XX` escapes); a component whose escapes are malformed is
 * kept as written, for the rules to refuse. Reads the URL string once, without building a URL or URLSearchParams.
 */
export function queryOf(url: string): RawQuery {
  // A plain object, not Object.create(null): that one is a dictionary, several times slower to fill and read.
  const query: RawQuery = {};
  const start = url.indexOf('?');
  if (start === -1) return query;
  const hash = url.indexOf('#', start);
  const end = hash === -1 ? url.length : hash;
  let at = start + 1;
  while (at < end) {
    let next = url.indexOf('&', at);
    if (next === -1 || next > end) next = end;
    if (next > at) {
      const equals = url.indexOf('=', at);
      const hasValue = equals !== -1 && equals < next;
      const name = decodeComponent(url.slice(at, hasValue ? equals : next));
      const value = hasValue ? decodeComponent(url.slice(equals + 1, next)) : '';
      const seen = Object.hasOwn(query, name) ? query[name] : undefined;
      const values = seen === undefined ? value : Array.isArray(seen) ? [...seen, value] : [seen, value];
      // Assigning `__proto__` would set the prototype: it is defined as an own member like any other name.
      if (name === '__proto__')
        Object.defineProperty(query, name, {
          value: values,
          enumerable: true,
          writable: true,
          configurable: true,
        });
      else query[name] = values;
    }
    at = next + 1;
  }
  return query;
}

function decodeComponent(text: string): string {
  const spaced = text.includes('+') ? text.replaceAll('+', ' ') : text;
  if (!spaced.includes('%')) return spaced;
  try {
    return decodeURIComponent(spaced);
  } catch {
    return spaced;
  }
}
