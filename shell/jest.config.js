const preset = require('../jest.presets.cjs').web(__dirname);

module.exports = {
  ...preset,
  // test/setup.ts: relative URLs for the Request that RTK Query builds (Node's Request needs an absolute one).
  setupFiles: [...preset.setupFiles, '<rootDir>/test/setup.ts'],
};
