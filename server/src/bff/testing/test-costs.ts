import type { ScryptCost } from '../auth/password.ts';

/** Cheaper scrypt costs for tests only; production code uses DEFAULT_SCRYPT_COST. */
export const FAST_TEST_COST: ScryptCost = { N: 2 ** 10, r: 8, p: 1 };
/** Expensive enough that scrypt, not scheduling noise, dominates a timing sample. */
export const TIMING_TEST_COST: ScryptCost = { N: 2 ** 12, r: 8, p: 1 };
