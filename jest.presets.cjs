// Shared Jest configurations. Node packages: `unit` or `integration` (starts Postgres once per run);
// frontends: `web` (jsdom).
const path = require('node:path');

const swc = (tsx) => [
  '@swc/jest',
  {
    jsc: {
      parser: { syntax: 'typescript', tsx },
      transform: tsx ? { react: { runtime: 'automatic' } } : undefined,
      target: 'es2022',
    },
    module: { type: 'commonjs' },
  },
];

const reporters = ['default', path.join(__dirname, 'scripts/jest-summary-reporter.cjs')];

exports.unit = (rootDir) => ({
  rootDir,
  reporters,
  testEnvironment: 'node',
  testMatch: ['<rootDir>/test/**/*.test.ts'],
  transform: { '^.+\\.(t|j)sx?$': swc(false) },
  // light-my-request's cookie dependency is ESM-only (toolchain note G5).
  transformIgnorePatterns: ['/node_modules/(?!(cookie)/)'],
  testTimeout: 30_000,
});

exports.integration = (rootDir) => ({
  ...exports.unit(rootDir),
  globalSetup: path.join(__dirname, 'services/kit/jest/pg-setup.mjs'),
  globalTeardown: path.join(__dirname, 'services/kit/jest/pg-teardown.mjs'),
  testTimeout: 60_000,
});

exports.web = (rootDir) => ({
  rootDir,
  reporters,
  testEnvironment: path.join(__dirname, 'shell/sdk/jest/environment.cjs'),
  testMatch: ['<rootDir>/test/**/*.test.ts?(x)'],
  transform: { '^.+\\.(t|j)sx?$': swc(true) },
  transformIgnorePatterns: ['/node_modules/(?!(react-data-grid)/)'],
  setupFiles: [path.join(__dirname, 'shell/sdk/jest/setup.cjs')],
  moduleNameMapper: { '\\.css$': 'identity-obj-proxy' },
  testTimeout: 30_000,
});

/**
 * A frontend with database tests too: its jsdom tests, and Node tests against a real Postgres
 * (`*.db.test.ts`: the remote's templates run on fresh project databases).
 */
exports.webWithDatabase = (rootDir) => {
  const { reporters, ...web } = exports.web(rootDir);
  const { reporters: _dbReporters, ...db } = exports.integration(rootDir);
  const DB_TESTS = '\\.db\\.test\\.ts$';
  return {
    reporters,
    projects: [
      { ...web, displayName: 'web', testPathIgnorePatterns: ['/node_modules/', DB_TESTS] },
      { ...db, displayName: 'db', testMatch: ['<rootDir>/test/**/*.db.test.ts'] },
    ],
  };
};
