module.exports = require('../../jest.presets.cjs').unit(__dirname);
