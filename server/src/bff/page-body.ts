import type { PaymentPage } from '@payments/shared';

const DATA_FIRST = Buffer.from('{"data":');
const OPEN_ARRAY = 0x5b;

/**
 * The JSON body of one page for the browser: the upstream's envelope with its cursor replaced by ours.
 *
 * When the upstream's bytes mean exactly the validated page (see `UpstreamResult.bytes`) and are written as
 * `{"data":[…],"next_cursor":…,"has_more":…}` with no spaces, the bytes of `data` are forwarded as they came
 * instead of serialising the page again: that serialisation and its UTF-8 encoding were the largest part of the
 * BFF's own time per page. Any other layout falls back to `JSON.stringify`.
 *
 * Why the reuse is exact: the bytes were parsed and validated as `page`. They must begin with `{"data":[`, the
 * array that starts there must end exactly where the page's own tail begins, and the bytes must end with that
 * tail, `,"next_cursor":<cursor>,"has_more":<bool>}` as JSON.stringify writes it. So the top level holds these
 * three members and nothing else: no second `data` that validation never saw, no second cursor (whatever its
 * spelling) to carry the upstream's cursor past the rewrite.
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
      endOfArray(bytes, DATA_FIRST.length) === dataEnd
    )
      return Buffer.concat([bytes.subarray(0, dataEnd), Buffer.from(tail)]);
  }
  return `{"data":${JSON.stringify(page.data)}${tail}`;
}

/**
 * The index just past the array that starts at `start` in bytes that are valid JSON (they were parsed), or -1.
 * Strings are skipped with their escapes; UTF-8 continuation bytes are never ASCII, so bytes compare safely.
 */
function endOfArray(bytes: Uint8Array, start: number): number {
  if (bytes[start] !== OPEN_ARRAY) return -1;
  let depth = 0;
  for (let i = start; i < bytes.length; i++) {
    const byte = bytes[i];
    if (byte === 0x22) {
      for (i += 1; i < bytes.length; i++) {
        const inner = bytes[i];
        if (inner === 0x5c) i += 1;
        else if (inner === 0x22) break;
      }
    } else if (byte === 0x5b || byte === 0x7b) {
      depth += 1;
    } else if (byte === 0x5d || byte === 0x7d) {
      depth -= 1;
      if (depth === 0) return i + 1;
    }
  }
  return -1;
}
