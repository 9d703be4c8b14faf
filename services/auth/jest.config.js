module.exports = require('../../jest.presets.cjs').integration(__dirname);
