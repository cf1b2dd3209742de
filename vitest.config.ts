import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    projects: ['shared', 'server', 'web', 'test/abuse', 'test/replicas'],
    // Vitest's default on a 2-core machine is one worker (the cores less one), so every file waited for the one
    // before it, though most wait on sockets, child processes and timers rather than a core. Two at once; the
    // abuse suite still runs its files one at a time, after the rest (its own config says why).
    maxWorkers: 2,
  },
});
