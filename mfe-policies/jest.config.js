// Two projects: the remote's jsdom tests, and Node tests against a real Postgres (`*.db.test.ts`, which
// apply the policy templates on a fresh project database and try them as the roles they are about).
const presets = require('../jest.presets.cjs');

const { reporters, ...web } = presets.web(__dirname);
const { reporters: _dbReporters, ...db } = presets.integration(__dirname);
const DB_TESTS = '\\.db\\.test\\.ts$';

module.exports = {
  reporters,
  projects: [
    { ...web, displayName: 'web', testPathIgnorePatterns: ['/node_modules/', DB_TESTS] },
    { ...db, displayName: 'db', testMatch: ['<rootDir>/test/**/*.db.test.ts'] },
  ],
};
