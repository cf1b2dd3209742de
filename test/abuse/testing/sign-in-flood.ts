import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { FloodOptions } from '../attackers/sign-in-flood.ts';

const FLOODER = fileURLToPath(new URL('../attackers/sign-in-flood.ts', import.meta.url));

export interface FloodTotals {
  attempts: number;
  perSecond: number;
  outcomes: Record<string, number>;
  cpuMs: number;
}

/** attackers/sign-in-flood.ts in a process of its own; `kill` for a test that ends early. */
export function startFlood(options: FloodOptions) {
  const child = spawn(process.execPath, [FLOODER, JSON.stringify(options)], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let output = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
    output += chunk;
  });
  return {
    kill: () => child.kill('SIGKILL'),
    totals: new Promise<FloodTotals>((resolve, reject) =>
      child.once('close', () => {
        try {
          resolve(JSON.parse(output));
        } catch {
          reject(new Error(`the flood printed no totals: ${output}`));
        }
      }),
    ),
  };
}
