import fc from 'fast-check';

/**
 * Runs a fast-check property `numRuns` times. A failure is thrown as one line with the seed and path that replay
 * it (`FC_SEED=… FC_PATH=…`, which make the next run replay it alone), not as the whole generated world.
 */
export async function checkProperty<T>(property: fc.IAsyncProperty<T>, numRuns: number): Promise<void> {
  const replay = process.env.FC_SEED
    ? { seed: Number(process.env.FC_SEED), path: process.env.FC_PATH, endOnFailure: true }
    : {};
  const details = await fc.check(property, { numRuns, ...replay });
  if (details.failed)
    throw new Error(
      `failed (replay with FC_SEED=${details.seed} FC_PATH="${details.counterexamplePath}"): ${(details.errorInstance as Error)?.stack ?? String(details.errorInstance)}`,
    );
}

/** JSON.parse keeping ids exact: a number's digits as the response carried them (`{ rawJSON }`). */
export const parseExact = (text: string): unknown =>
  JSON.parse(text, (key, value: unknown, context?: { source?: string }) =>
    key === 'id' && typeof value === 'number' ? { rawJSON: context?.source } : value,
  );

/** An id as a key: a text id quoted, a number as the digits it was sent with (see parseExact). */
export const idKey = (id: unknown) =>
  typeof id === 'string' ? JSON.stringify(id) : String((id as { rawJSON?: string }).rawJSON ?? id);

export const compare = <T>(a: T, b: T) => (a < b ? -1 : a > b ? 1 : 0);

/** Ids in the order a sorted view breaks ties by: numbers as numbers (of any size), else as text. */
export function compareIds(a: unknown, b: unknown): number {
  const [x, y] = [idKey(a), idKey(b)];
  return /^\d+$/.test(x) && /^\d+$/.test(y) ? compare(BigInt(x), BigInt(y)) : compare(x, y);
}
