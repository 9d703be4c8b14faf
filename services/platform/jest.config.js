const preset = require('../../jest.presets.cjs').integration(__dirname);

// The local global setup only differs from the kit's by making its temp folder readable by the
// `postgres` user (needed when tests run as root); teardown is the kit's.
module.exports = { ...preset, globalSetup: '<rootDir>/test/pg-setup.mjs' };
