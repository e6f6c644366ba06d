// ESLint flat config: typescript-eslint's type-checked rules over apps, libs, test and bench
// (`npm run lint`; `.ci/run` runs it and fails on any finding).
import eslint from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['dist/**', 'bench/tmp/**', 'node_modules/**', 'coverage/**', 'scripts/**', '**/*.js', '**/*.mjs'] },
  eslint.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      // Unused arguments named _x are placeholders a signature requires.
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      // Implementations of async interfaces (RecordStore on better-sqlite3, which is synchronous) stay
      // `async` so that whatever they throw reaches the caller as a rejection, like the other store's.
      '@typescript-eslint/require-await': 'off',
    },
  },
  {
    // Tests read JSON answers (supertest's `body`, parsed logs, OpenAPI documents), which are `any` by
    // nature; asserting their shape is what the tests do, so the no-unsafe-* family would only add casts.
    files: ['test/**/*.ts', '**/*.spec.ts', '**/*.fixtures.ts', 'bench/**/*.ts'],
    rules: {
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
      '@typescript-eslint/no-explicit-any': 'off',
    },
  },
  {
    // The adapter overrides Nest's AbstractHttpAdapter methods, which Nest declares with `any`.
    files: ['libs/http/src/inventory-http.adapter.ts'],
    rules: { '@typescript-eslint/no-explicit-any': 'off', '@typescript-eslint/no-unsafe-argument': 'off' },
  },
);
