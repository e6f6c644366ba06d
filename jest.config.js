// Two projects: pure unit tests beside the code, and HTTP tests under test/ that start the real app.
// tsconfig.jest.json sets `isolatedModules`, so ts-jest transpiles only; `npm run build` (tsc) is the type check.
const moduleNameMapper = {
  '^@inventory/crud$': '<rootDir>/libs/crud/src',
  '^@inventory/auth$': '<rootDir>/libs/auth/src',
  '^@inventory/http$': '<rootDir>/libs/http/src',
};
const transform = { '^.+\\.ts$': ['ts-jest', { tsconfig: 'tsconfig.jest.json' }] };
module.exports = {
  // Per-project testTimeout is ignored by Jest 30; end-to-end tests start apps and processes.
  testTimeout: 60000,
  projects: [
    {
      displayName: 'unit',
      rootDir: __dirname,
      testMatch: ['<rootDir>/{apps,libs}/**/*.spec.ts'],
      moduleNameMapper,
      transform,
      testEnvironment: 'node',
    },
    {
      displayName: 'e2e',
      rootDir: __dirname,
      testMatch: ['<rootDir>/test/**/*.e2e-spec.ts'],
      moduleNameMapper,
      transform,
      testEnvironment: 'node',
    },
  ],
};
