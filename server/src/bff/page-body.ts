import type { PaymentPage } from '@payments/shared';

const DATA_FIRST = Buffer.from('{"data":');
const CURSOR_KEY = '"next_cursor"';

/**
 * The JSON body of one page for the browser: the upstream's envelope with its cursor replaced by ours.
 *
 * When the upstream's bytes are known to hold nothing but the envelope's three members (see `UpstreamResult`),
 * written as `{"data":…,"next_cursor":…,"has_more":…}` with no spaces, the bytes of `data` are forwarded as they
 * came instead of serialising the validated page again: that serialisation and its UTF-8 encoding were the
 * largest part of the BFF's own time per page. Any other layout falls back to `JSON.stringify`.
 *
 * Why the reuse is exact: the bytes were parsed and validated as `page`. They must begin with `{"data":` and end
 * with the page's own tail, `,"next_cursor":<cursor>,"has_more":<bool>}` as JSON.stringify writes it. A `"`
 * after `,` or `:` cannot be inside a string (there it would be escaped), so that tail holds the object's last
 * two members; with exactly three members, everything between is the value of `data`. The upstream's cursor must
 * appear nowhere else, so a duplicated member cannot carry it past the rewrite.
 */
export function pageBody(
  page: PaymentPage,
  upstreamBytes: Uint8Array | undefined,
  nextCursor: string | null,
): Uint8Array<ArrayBuffer> | string {
  const tail = `,"next_cursor":${JSON.stringify(nextCursor)},"has_more":${page.has_more}}`;
  if (upstreamBytes !== undefined) {
    const bytes = Buffer.from(upstreamBytes.buffer, upstreamBytes.byteOffset, upstreamBytes.byteLength);
    const upstreamTail = Buffer.from(
      `,"next_cursor":${JSON.stringify(page.next_cursor)},"has_more":${page.has_more}}`,
    );
    const dataEnd = bytes.length - upstreamTail.length;
    if (
      dataEnd > DATA_FIRST.length &&
      bytes.subarray(0, DATA_FIRST.length).equals(DATA_FIRST) &&
      bytes.subarray(dataEnd).equals(upstreamTail) &&
      bytes.indexOf(CURSOR_KEY) === dataEnd + 1
    )
      return Buffer.concat([bytes.subarray(0, dataEnd), Buffer.from(tail)]);
  }
  return `{"data":${JSON.stringify(page.data)}${tail}`;
}
