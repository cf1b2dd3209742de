import react from '@vitejs/plugin-react';
import { defineProject } from 'vitest/config';

export default defineProject({
  plugins: [react()],
  test: {
    name: 'web',
    include: ['src/**/*.test.{ts,tsx}'],
    environment: 'jsdom',
    // jsdom's localStorage needs a real origin
    environmentOptions: { jsdom: { url: 'http://127.0.0.1/' } },
  },
});
