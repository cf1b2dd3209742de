/** A deterministic pseudo-random source: the same seed always yields the same sequence. */
export type Random = () => number;

/**
 * A Weyl sequence passed through the 32-bit MurmurHash3 finaliser: tiny, fast, and good enough to spread
 * sandbox data; not for anything secret.
 */
export function seededRandom(seed: number): Random {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x9e3779b9) >>> 0;
    let z = state;
    z = Math.imul(z ^ (z >>> 16), 0x85ebca6b);
    z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35);
    z ^= z >>> 16;
    return (z >>> 0) / 4294967296;
  };
}

/** An index into the weights behind `cumulative`, each chosen with probability proportional to its weight. */
export function pickWeighted(random: Random, cumulative: readonly number[]): number {
  const total = cumulative[cumulative.length - 1] ?? 0;
  const target = random() * total;
  let low = 0;
  let high = cumulative.length - 1;
  while (low < high) {
    const mid = (low + high) >> 1;
    if ((cumulative[mid] as number) > target) high = mid;
    else low = mid + 1;
  }
  return low;
}

/** Running sums of `weights`, the form `pickWeighted` takes. */
export function cumulativeWeights(weights: readonly number[]): number[] {
  let sum = 0;
  return weights.map((w) => {
    sum += w;
    return sum;
  });
}
