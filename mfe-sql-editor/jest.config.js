// The remote's jsdom tests, and its `*.db.test.ts` against a real Postgres (run the templates and quickstarts on fresh project databases).
module.exports = require('../jest.presets.cjs').webWithDatabase(__dirname);
