import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['node_modules/', '.output/', '.wxt/', 'data/', 'coverage/', 'dist/', '.tmp/'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
      'no-console': ['error', { allow: ['error', 'warn'] }],
    },
  },
  {
    files: ['server/main.ts', 'server/admin.ts', 'server/copy-to-postgres.ts', 'bench/**', 'scripts/**'],
    rules: { 'no-console': 'off' },
  },
  {
    // lib/ is shared by the server, the background and the pages: it leans on no page's UI, so that no
    // import circle runs through a component again.
    files: ['lib/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['**/components', '**/components/**', '**/entrypoints', '**/entrypoints/**'],
              message: 'lib/ imports nothing from components/ or entrypoints/: move what both need into lib/.',
            },
          ],
        },
      ],
    },
  },
);
