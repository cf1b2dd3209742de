import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import { createSandbox, type Sandbox, type SandboxOptions } from './create-sandbox.ts';

export interface RunningSandbox {
  sandbox: Sandbox;
  /** `http://HOST:PORT/v1`, the base address the spec's paths are relative to. */
  baseUrl: string;
  close(): Promise<void>;
}

export const DEFAULT_HOST = '127.0.0.1';
export const DEFAULT_PORT = 4010;

/** Creates a sandbox and serves it over HTTP; port 0 picks a free port. */
export async function startSandbox(
  options: SandboxOptions & { host?: string; port?: number },
): Promise<RunningSandbox> {
  const { host = DEFAULT_HOST, port = DEFAULT_PORT, ...sandboxOptions } = options;
  const sandbox = createSandbox(sandboxOptions);
  let server: ReturnType<typeof serve>;
  let address: AddressInfo;
  try {
    ({ server, address } = await new Promise<{ server: ReturnType<typeof serve>; address: AddressInfo }>(
      (resolve, reject) => {
        const listening = serve({ fetch: sandbox.app.fetch, hostname: host, port }, (info) =>
          resolve({ server: listening, address: info }),
        );
        listening.once('error', reject);
      },
    ));
  } catch (error) {
    sandbox.close();
    throw error;
  }
  const hostPart = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  let closing: Promise<void> | undefined;
  return {
    sandbox,
    baseUrl: `http://${hostPart}:${address.port}/v1`,
    close() {
      closing ??= new Promise<void>((resolve, reject) => {
        server.close((error) => {
          sandbox.close();
          if (error) reject(error);
          else resolve();
        });
        // Keep-alive connections would hold `close` open until they time out.
        if ('closeAllConnections' in server) server.closeAllConnections();
      });
      return closing;
    },
  };
}
