import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    projects: ['shared', 'server', 'web', 'test/abuse', 'test/replicas'],
  },
});
