import { Dispatcher } from 'undici';

/** What answers a request in-process: a Hono app's `fetch`, say. */
type Serve = (request: Request) => Response | Promise<Response>;

/**
 * An undici dispatcher that hands every request to `serve` in this process instead of the network, so that a
 * test's BFF talks to its upstream (a sandbox, a generated upstream) through `app.fetch`, without a port. The
 * response body streams through the handler; aborting the request cancels the body.
 */
export class InProcessDispatcher extends Dispatcher {
  readonly #serve: Serve;

  constructor(serve: Serve) {
    super();
    this.#serve = serve;
  }

  override dispatch(options: Dispatcher.DispatchOptions, handler: Dispatcher.DispatchHandler): boolean {
    const abort = new AbortController();
    const controller: Dispatcher.DispatchController = {
      get aborted() {
        return abort.signal.aborted;
      },
      paused: false,
      get reason() {
        return (abort.signal.reason as Error | undefined) ?? null;
      },
      abort(reason: Error) {
        if (abort.signal.aborted) return;
        abort.abort(reason);
        handler.onResponseError?.(controller, reason);
      },
      pause() {},
      resume() {},
    };
    handler.onRequestStart?.(controller, {});
    void this.#answer(options, handler, controller, abort.signal).catch((error: Error) => {
      if (!abort.signal.aborted) handler.onResponseError?.(controller, error);
    });
    return true;
  }

  async #answer(
    options: Dispatcher.DispatchOptions,
    handler: Dispatcher.DispatchHandler,
    controller: Dispatcher.DispatchController,
    signal: AbortSignal,
  ) {
    const headers = new Headers();
    const given = options.headers ?? {};
    const pairs: [string, unknown][] = Array.isArray(given)
      ? Array.from({ length: given.length / 2 }, (_, i) => [String(given[2 * i]), given[2 * i + 1]])
      : Object.entries(given);
    for (const [name, value] of pairs) if (value !== undefined) headers.set(name, String(value));
    const url = new URL(options.path, String(options.origin));
    const response = await this.#serve(new Request(url, { method: options.method, headers, signal }));
    const responseHeaders: Record<string, string> = {};
    response.headers.forEach((value, name) => {
      responseHeaders[name] = value;
    });
    if (signal.aborted) return;
    handler.onResponseStart?.(controller, response.status, responseHeaders, response.statusText);
    const reader = response.body?.getReader();
    for (;;) {
      const read = reader ? await reader.read() : { done: true as const };
      if (signal.aborted) {
        await reader?.cancel().catch(() => undefined);
        return;
      }
      if (read.done) break;
      handler.onResponseData?.(controller, Buffer.from(read.value));
    }
    handler.onResponseEnd?.(controller, {});
  }

  override async close(): Promise<void> {}

  override async destroy(): Promise<void> {}
}
