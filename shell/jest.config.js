module.exports = require('../jest.presets.cjs').web(__dirname);
