import { defineProject } from 'vitest/config';

export default defineProject({
  test: {
    name: 'replicas',
    include: ['*.test.ts'],
    environment: 'node',
    // Processes of their own (Redis, nginx, a sandbox, two BFFs): after the other projects, like the abuse suite.
    sequence: { groupOrder: 1 },
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});
