import { act } from '@testing-library/react';
import { vi } from 'vitest';

/** One streamed answer of the BFF, as a test writes it. */
export interface EventStream {
  url: URL;
  headers: Headers;
  signal: AbortSignal | null | undefined;
  send: (event: string, data: unknown) => Promise<void>;
  /** An event whose data is written as given (JSON that JSON.stringify cannot write: integers beyond 2^53). */
  sendRaw: (event: string, data: string) => Promise<void>;
  end: () => Promise<void>;
}

/**
 * The BFF's `text/event-stream` answers at the network boundary: each request gets a body the test writes events
 * into, and each write lets the screen settle.
 */
export function serveEventStreams(): EventStream[] {
  const streams: EventStream[] = [];
  const encoder = new TextEncoder();
  vi.stubGlobal('fetch', async (input: string, init: RequestInit) => {
    let controller!: ReadableStreamDefaultController<Uint8Array>;
    const body = new ReadableStream<Uint8Array>({
      start: (c) => {
        controller = c;
      },
    });
    const settle = () => act(() => new Promise((resolve) => setTimeout(resolve, 10)));
    streams.push({
      url: new URL(input, 'http://app.test'),
      headers: new Headers(init.headers),
      signal: init.signal,
      send: async (event, data) => {
        controller.enqueue(encoder.encode(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`));
        await settle();
      },
      sendRaw: async (event, data) => {
        controller.enqueue(encoder.encode(`event: ${event}\ndata: ${data}\n\n`));
        await settle();
      },
      end: async () => {
        controller.close();
        await settle();
      },
    });
    return new Response(body, { headers: { 'Content-Type': 'text/event-stream' } });
  });
  return streams;
}
