import { defineProject } from 'vitest/config';

export default defineProject({
  test: {
    name: 'abuse',
    include: ['*.test.ts'],
    environment: 'node',
    // Each file measures latency on a 2-core machine while it attacks: two files at once would measure each other.
    fileParallelism: false,
    // After the other projects, for the same reason: `vitest run` runs projects of one group order together.
    sequence: { groupOrder: 1 },
    testTimeout: 90_000,
    hookTimeout: 30_000,
  },
});
