// The remote's jsdom tests, and its `*.db.test.ts` against a real Postgres (apply the policy templates on a fresh project database and try them as the roles they are about).
module.exports = require('../jest.presets.cjs').webWithDatabase(__dirname);
