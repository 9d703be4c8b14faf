// The gateway keeps no database: its tests start real upstream HTTP stubs, not Postgres.
module.exports = require('../../jest.presets.cjs').unit(__dirname);
