/** How the benchmarks measure a download through the BFF: as a client takes it, with the BFF's memory beside it. */
import { readFileSync } from 'node:fs';
import { Pool } from 'undici';
import { rssOf } from './bench-process.ts';

/** A BFF child to download from: where it listens, a signed-in session, its pid and the file it logs to. */
export interface ExportTarget {
  origin: string;
  session: Record<string, string>;
  pid: number;
  logFile: string;
}

/** CSV rows: line ends outside quotes, less the header. */
function csvRowCounter() {
  let lines = 0;
  let quoted = false;
  return {
    take(chunk: Buffer) {
      for (const byte of chunk) {
        if (byte === 0x22) quoted = !quoted;
        else if (byte === 0x0a && !quoted) lines += 1;
      }
    },
    rows: () => lines - 1,
  };
}

/**
 * The rows of the BFF's last XLSX download, from its export_end line, once the bytes end with a zip's end of
 * central directory: unzipping here would charge the client's work to the BFF's figure.
 */
function xlsxRows(target: ExportTarget, tail: Buffer): number {
  if (tail.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06])) < 0) throw new Error('xlsx: not a whole zip');
  const ends = readFileSync(target.logFile, 'utf8')
    .split('\n')
    .filter((line) => line.includes('"export_end"'))
    .map((line) => JSON.parse(line) as { format?: string; end?: string; rows?: number });
  const last = ends.filter((line) => line.format === 'xlsx').at(-1);
  if (last?.end !== 'complete') throw new Error(`xlsx export ended ${last?.end}`);
  return last.rows ?? 0;
}

/** One whole export through the BFF: rows, seconds, bytes, and the BFF's peak RSS growth while it ran (MB). */
export async function measureExport(
  target: ExportTarget,
  format: 'csv' | 'xlsx',
): Promise<{ rows: number; seconds: number; bytes: number; growth: number }> {
  const baseline = rssOf(target.pid);
  let peak = baseline;
  const sampler = setInterval(() => {
    peak = Math.max(peak, rssOf(target.pid));
  }, 20);
  const pool = new Pool(target.origin, { connections: 1 });
  const started = performance.now();
  const response = await pool.request({
    path: `/api/payments/export.${format}`,
    method: 'GET',
    headers: target.session,
  });
  const csv = csvRowCounter();
  let bytes = 0;
  let tail = Buffer.alloc(0);
  for await (const chunk of response.body as AsyncIterable<Buffer>) {
    bytes += chunk.length;
    if (format === 'csv') csv.take(chunk);
    else tail = Buffer.concat([tail, chunk]).subarray(-64 * 1024);
  }
  const seconds = (performance.now() - started) / 1000;
  clearInterval(sampler);
  peak = Math.max(peak, rssOf(target.pid));
  await pool.close();
  const rows = format === 'csv' ? csv.rows() : xlsxRows(target, tail);
  return { rows, seconds, bytes, growth: peak - baseline };
}
