module.exports = {
  ...require('../../jest.presets.cjs').integration(__dirname),
  // The DDL builders parse user expressions with Postgres's parser, which loads asynchronously once.
  setupFilesAfterEnv: ['<rootDir>/test/load-expression-parser.ts'],
};
