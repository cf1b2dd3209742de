import { defineProject } from 'vitest/config';

export default defineProject({
  test: {
    name: 'replicas',
    include: ['*.test.ts'],
    environment: 'node',
    // Six processes of its own (Redis, nginx, a sandbox, two BFFs): after every other project, the abuse suite's
    // latency measurements included, so that neither loads the machine while the other runs.
    sequence: { groupOrder: 2 },
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});
