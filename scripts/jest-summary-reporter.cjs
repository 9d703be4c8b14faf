// Writes a package's pass/fail counts for `npm test` to add up (DASH_TEST_SUMMARY_DIR).
const fs = require('node:fs');
const path = require('node:path');

class SummaryReporter {
  constructor(globalConfig) {
    this.rootDir = globalConfig.rootDir;
  }
  onRunComplete(_contexts, results) {
    const dir = process.env.DASH_TEST_SUMMARY_DIR;
    if (!dir) return;
    fs.mkdirSync(dir, { recursive: true });
    const name = path.relative(path.resolve(__dirname, '..'), this.rootDir).replace(/[\\/]/g, '_') || 'root';
    const failedSuites = results.numFailedTestSuites + results.numRuntimeErrorTestSuites;
    fs.writeFileSync(
      path.join(dir, `${name}.json`),
      JSON.stringify({ passed: results.numPassedTests, failed: results.numFailedTests + (results.numFailedTests === 0 ? failedSuites : 0), total: results.numTotalTests }),
    );
  }
}
module.exports = SummaryReporter;
