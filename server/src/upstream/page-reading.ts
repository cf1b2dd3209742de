import { promisify } from 'node:util';
import { brotliDecompress, gunzip, inflate } from 'node:zlib';
import { describeIssue, type PaymentPage, paymentPageSchema } from '@payments/shared';
import type { Dispatcher } from 'undici';

/** A page body is never read past this, counted before and after decompression. */
const MAX_BODY_BYTES = 8 * 1024 * 1024;

/** A 200's body: the page, or why it is none (`retryable` when cut short or not JSON: a transport fault). */
export type PageReading =
  | { kind: 'page'; page: PaymentPage }
  | { kind: 'bad'; detail: string; retryable: boolean };

export function header(response: Dispatcher.ResponseData, name: string): string | undefined {
  const value = response.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

/** Reads a 200 as a page: its envelope and records checked against the shared schema; records pass as they came. */
export async function readPage(response: Dispatcher.ResponseData): Promise<PageReading> {
  const text = await boundedText(response);
  if (text === null) return { kind: 'bad', detail: 'body is larger than 8 MiB', retryable: false };
  let json: unknown;
  try {
    json = parseKeepingDigits(text);
  } catch {
    return { kind: 'bad', detail: `body is not JSON (${text.length} characters)`, retryable: true };
  }
  const parsed = paymentPageSchema.safeParse(json);
  if (!parsed.success)
    return { kind: 'bad', detail: describeIssue(parsed.error.issues[0], json), retryable: false };
  // The records as they came (the schema's output is a copy that would have to be trusted to be faithful); of
  // the envelope, only its own three members.
  const { data, next_cursor, has_more } = json as PaymentPage;
  return { kind: 'page', page: { data, next_cursor, has_more } };
}

const DECODERS: Record<string, (bytes: Buffer, options: { maxOutputLength: number }) => Promise<Buffer>> = {
  gzip: promisify(gunzip),
  'x-gzip': promisify(gunzip),
  deflate: promisify(inflate),
  br: promisify(brotliDecompress),
};

/** The body as text, or null past MAX_BODY_BYTES (counted after decompression too, so a small bomb cannot grow). */
async function boundedText(response: Dispatcher.ResponseData): Promise<string | null> {
  if (Number(header(response, 'content-length')) > MAX_BODY_BYTES) {
    await response.body.dump();
    return null;
  }
  const chunks: Buffer[] = [];
  let size = 0;
  // Leaving the loop early destroys the body, and with it the connection's read.
  for await (const chunk of response.body as AsyncIterable<Buffer>) {
    size += chunk.byteLength;
    if (size > MAX_BODY_BYTES) return null;
    chunks.push(chunk);
  }
  let bytes: Buffer = Buffer.concat(chunks, size);
  const encoding = header(response, 'content-encoding')?.trim().toLowerCase();
  if (encoding && encoding !== 'identity') {
    const decode = DECODERS[encoding];
    if (!decode) throw Object.assign(new Error(`content-encoding ${encoding}`), { code: 'UNKNOWN_ENCODING' });
    try {
      bytes = await decode(bytes, { maxOutputLength: MAX_BODY_BYTES });
    } catch (error) {
      if ((error as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE') return null;
      throw error;
    }
  }
  // As Response.text() reads it: a leading byte order mark is not part of the text.
  return utf8.decode(bytes);
}

const utf8 = new TextDecoder();

/** An integer literal of 16 or more digits: the only numbers JSON.parse may not keep to the digit. */
const LONG_NUMBER = /[-:,[\s]\d{16}/;

/**
 * JSON.parse, but an integer beyond 2^53 is kept as the raw JSON text the upstream sent (a number would lose
 * its last digits), so an id or amount of that size reaches the browser and the export digit for digit. The
 * reviver costs five plain parses, so it runs only for a page that holds such a number.
 */
function parseKeepingDigits(text: string): unknown {
  if (!LONG_NUMBER.test(text)) return JSON.parse(text);
  return JSON.parse(text, (_key, value: unknown, context?: { source?: string }) =>
    typeof value === 'number' && Number.isInteger(value) && !Number.isSafeInteger(value) && context?.source
      ? JSON.rawJSON(context.source)
      : value,
  );
}
