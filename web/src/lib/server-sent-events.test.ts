import { describe, expect, it } from 'vitest';
import { type ServerSentEvent, serverSentEvents } from './server-sent-events.ts';

function body(chunks: string[]): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  return new ReadableStream({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(encoder.encode(chunk));
      controller.close();
    },
  });
}

async function events(chunks: string[]): Promise<ServerSentEvent[]> {
  const out: ServerSentEvent[] = [];
  for await (const event of serverSentEvents(body(chunks))) out.push(event);
  return out;
}

describe('server-sent events', () => {
  it('reads named events whose lines are split anywhere across chunks', async () => {
    expect(
      await events([
        'event: progress\ndata: {"coun',
        'ted":100}\n',
        '\nevent: summary\r',
        '\ndata: {}\r\n\r\n',
      ]),
    ).toEqual([
      { event: 'progress', data: '{"counted":100}' },
      { event: 'summary', data: '{}' },
    ]);
  });

  it('joins data lines, skips comments, and names an unnamed event "message"', async () => {
    expect(await events([': keep-alive\n\ndata: a\ndata:b\n\n'])).toEqual([
      { event: 'message', data: 'a\nb' },
    ]);
  });

  it('drops an event the stream ends in the middle of', async () => {
    expect(await events(['event: progress\ndata: {"counted":1}\n\nevent: summary\ndata: {"cou'])).toEqual([
      { event: 'progress', data: '{"counted":1}' },
    ]);
  });

  it('passes on an error of the stream', async () => {
    let pulls = 0;
    // the first pull delivers an event, the second breaks, as a connection reset mid-stream does
    const failing = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (pulls++ === 0) controller.enqueue(new TextEncoder().encode('event: progress\ndata: 1\n\n'));
        else controller.error(new TypeError('network error'));
      },
    });
    const seen: string[] = [];
    await expect(
      (async () => {
        for await (const event of serverSentEvents(failing)) seen.push(event.data);
      })(),
    ).rejects.toThrow('network error');
    expect(seen).toEqual(['1']);
  });

  it('names a broken connection as the network error a failed request is, and leaves an abort one', async () => {
    const broken = new ReadableStream<Uint8Array>({
      pull(controller) {
        controller.error(new TypeError('network error'));
      },
    });
    await expect(serverSentEvents(broken).next()).rejects.toMatchObject({
      status: 0,
      code: 'network_error',
      detail: 'network error',
    });
    const aborted = new ReadableStream<Uint8Array>({
      pull(controller) {
        controller.error(new DOMException('stopped', 'AbortError'));
      },
    });
    await expect(serverSentEvents(aborted).next()).rejects.toMatchObject({ name: 'AbortError' });
  });
});
