import { type PaymentPage, paymentPageProblem } from '@payments/shared';
import { scanPaymentPage } from './page-scanner.ts';

/** What a 200's body decodes to: the value, or why the body breaks the interface (with its text, for the log). */
export type Decoded<T> = { ok: true; value: T } | { ok: false; detail: string; text: string };

/**
 * A validated page as JSON to forward: `data` is the JSON text of its records, exactly what validation accepted.
 * It is the upstream's own bytes of the array when one scan proved they mean exactly that, so on the common path
 * no record is built, checked as an object or serialised again on the way through.
 */
export interface PageJson {
  data: Uint8Array;
  next_cursor: string | null;
  has_more: boolean;
}

const utf8 = new TextDecoder();

/** A body's text as `Response.text()` decodes it: a leading byte order mark is not part of the text. */
export function bodyText(bytes: Uint8Array): string {
  return utf8.decode(bytes);
}

/** The page's text parsed and checked against the interface: the envelope, its two rules, every record. */
export function decodePage(bytes: Uint8Array): Decoded<PaymentPage> {
  const text = bodyText(bytes);
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return { ok: false, detail: 'response is not JSON', text };
  }
  const problem = paymentPageProblem(json);
  if (problem !== null) return { ok: false, detail: `not a page: ${problem}`, text };
  const { data, next_cursor, has_more } = json as PaymentPage;
  return { ok: true, value: { data: data.map(withoutProtoKey), next_cursor, has_more } };
}

/**
 * The page for forwarding: proved valid by one scan of its bytes (see page-scanner.ts), or, for any body the scan
 * is not sure of, parsed and checked by `decodePage` and its records written out again. On the first path `data` is
 * a view of `bytes`, not a copy: pass bytes that nothing writes to again.
 */
export function decodePageJson(bytes: Uint8Array): Decoded<PageJson> {
  const scanned = scanPaymentPage(bytes);
  if (scanned !== null)
    return {
      ok: true,
      value: {
        data: bytes.subarray(scanned.dataStart, scanned.dataEnd),
        next_cursor: scanned.next_cursor,
        has_more: scanned.has_more,
      },
    };
  const parsed = decodePage(bytes);
  if (!parsed.ok) return parsed;
  const { data, next_cursor, has_more } = parsed.value;
  return { ok: true, value: { data: Buffer.from(JSON.stringify(data)), next_cursor, has_more } };
}

/**
 * The record without an own `__proto__` key: JSON.parse keeps one as data, and the dashboard's records never
 * carry one (the schema's objects drop it too), so nothing downstream can mistake it for the prototype.
 */
function withoutProtoKey<T extends object>(record: T): T {
  if (!Object.hasOwn(record, '__proto__')) return record;
  return Object.fromEntries(Object.entries(record).filter(([key]) => key !== '__proto__')) as T;
}
