import { defineConfig } from 'vitest/config';
import { WxtVitest } from 'wxt/testing/vitest-plugin';

export default defineConfig({
  test: {
    testTimeout: 20_000,
    hookTimeout: 30_000,
    projects: [
      {
        test: { name: 'server', include: ['test/server/**/*.test.ts', 'test/lib/**/*.test.ts'], environment: 'node', testTimeout: 20_000, hookTimeout: 30_000 },
      },
      {
        plugins: [WxtVitest()],
        test: {
          name: 'extension',
          include: ['test/extension/**/*.test.ts', 'test/extension/**/*.test.tsx'],
          environment: 'happy-dom',
          testTimeout: 20_000,
          hookTimeout: 30_000,
        },
      },
    ],
  },
});
