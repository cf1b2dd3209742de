import { ERROR_CODES, type ErrorCode } from '@payments/shared/rules';
import { parseKeepingDigits } from './api-client.ts';
import { ApiError } from './api-error.ts';

/** One event of a `text/event-stream`: its name (`message` when none is given) and its data lines joined. */
export interface ServerSentEvent {
  event: string;
  data: string;
}

/**
 * The events of a `text/event-stream` body as they arrive, parsed by the WHATWG rules for `event`, `data` and
 * comments (`id` and `retry` only matter to a reconnecting EventSource, which cannot send the anti-forgery
 * header). An event the stream ends in the middle of is dropped, as the standard says.
 */
export async function* serverSentEvents(body: ReadableStream<Uint8Array>): AsyncGenerator<ServerSentEvent> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  let event = '';
  let data: string[] = [];
  try {
    for (;;) {
      const { done, value } = await read(reader);
      if (done) return;
      buffer += decoder.decode(value, { stream: true });
      // A CR at the end may be the first half of a CRLF split across chunks: it waits for the next one.
      const end = buffer.endsWith('\r') ? buffer.length - 1 : buffer.length;
      const lines = buffer.slice(0, end).split(/\r\n|\r|\n/);
      buffer = (lines.pop() ?? '') + buffer.slice(end);
      for (const line of lines) {
        if (line === '') {
          if (data.length > 0) yield { event: event || 'message', data: data.join('\n') };
          event = '';
          data = [];
          continue;
        }
        const colon = line.indexOf(':');
        if (colon === 0) continue;
        const field = colon === -1 ? line : line.slice(0, colon);
        const text = colon === -1 ? '' : line.slice(colon + (line[colon + 1] === ' ' ? 2 : 1));
        if (field === 'event') event = text;
        else if (field === 'data') data.push(text);
      }
    }
  } finally {
    // Stopped early (the reader of the events has what it needs, or gave up): the rest is not downloaded.
    await reader.cancel().catch(() => undefined);
  }
}

/**
 * A read of the body, a broken connection turned into the `network_error` a failed request gives (a reset stream
 * rejects with a TypeError, which the screens would name only as "something went wrong"). An abort stays one: it
 * is the reader's own doing (a query that no longer wants the answer).
 */
async function read(reader: ReadableStreamDefaultReader<Uint8Array>) {
  try {
    return await reader.read();
  } catch (error) {
    if (error instanceof DOMException && error.name === 'AbortError') throw error;
    throw new ApiError(
      0,
      'network_error',
      error instanceof Error ? error.message : 'the connection was lost',
    );
  }
}

/** A whole number of an event (a count), or null. */
export const wholeCount = (value: unknown) =>
  typeof value === 'number' && Number.isInteger(value) ? value : null;

/** An event that is not what its stream promised: `the search stream sent a start without its companies`. */
export function badStreamEvent(stream: string, what: string): ApiError {
  return new ApiError(200, 'bad_response', `${stream} sent ${what}`);
}

/** An event's data as JSON (ids beyond 2^53 kept as their digits), or undefined when it is not JSON. */
export function eventData(data: string): unknown {
  try {
    return parseKeepingDigits(data);
  } catch {
    return undefined;
  }
}

/** An `error` event's `{code, status, detail}` as the error value a failed request would have been. */
export function streamedProblem(data: unknown, fallback: string): ApiError {
  const { code, status, detail } = (data ?? {}) as { code?: unknown; status?: unknown; detail?: unknown };
  const known = (ERROR_CODES as readonly unknown[]).includes(code);
  return new ApiError(
    typeof status === 'number' ? status : 502,
    known ? (code as ErrorCode) : 'bad_response',
    typeof detail === 'string' ? detail : fallback,
  );
}
