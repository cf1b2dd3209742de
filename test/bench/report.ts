/** One measured figure of a benchmark, with its target when the issue names one. */
export interface BenchFigure {
  /** What was measured, e.g. "sandbox cursor page at depth 900k: median". */
  name: string;
  value: number;
  unit: string;
  /** The target as stated in the issue, e.g. "≤ 1.5". */
  target?: string;
  /** Whether `value` meets `target`; absent when there is no target. */
  ok?: boolean;
}

export interface BenchSuite {
  name: string;
  run(): Promise<BenchFigure[]>;
}

export { median } from '@payments/server/testing/median';

export function percentile(values: readonly number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  if (sorted.length === 0) return Number.NaN;
  const index = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[index] as number;
}

export function atMost(value: number, limit: number): Pick<BenchFigure, 'target' | 'ok'> {
  return { target: `≤ ${limit}`, ok: value <= limit };
}

export function atLeast(value: number, limit: number): Pick<BenchFigure, 'target' | 'ok'> {
  return { target: `≥ ${limit}`, ok: value >= limit };
}
