import { defineConfig } from '@playwright/test';
import { E2E_DATA_DIR, E2E_PASSWORD, E2E_PORT } from './stack';

// The browser tests run against the stack exactly as `npm start` runs it (built services, one static
// server per remote, embedded Postgres), on its own port and data directory so a developer's stack can
// keep running beside it.
export default defineConfig({
  testDir: '.',
  testMatch: /.*\.spec\.ts$/,
  workers: 1,
  fullyParallel: false,
  timeout: 90_000,
  expect: { timeout: 15_000 },
  reporter: [['list'], ['json', { outputFile: process.env.DASH_PW_JSON ?? `${__dirname}/test-results/e2e.json` }]],
  // Per port, so two runs side by side (DASH_E2E_PORT) do not delete each other's traces.
  outputDir: E2E_PORT === 18080 ? `${__dirname}/test-results` : `${__dirname}/test-results-${E2E_PORT}`,
  webServer: {
    command: `rm -rf ${E2E_DATA_DIR} && node scripts/dist/start.js`,
    cwd: '..',
    url: `http://127.0.0.1:${E2E_PORT}/health`,
    timeout: 180_000,
    reuseExistingServer: false,
    stdout: 'pipe',
    env: { PORT: String(E2E_PORT), DASH_DATA_DIR: E2E_DATA_DIR, DASHBOARD_DEMO_PASSWORD: E2E_PASSWORD, DATABASE_URL: '' },
  },
  use: {
    baseURL: `http://127.0.0.1:${E2E_PORT}`,
    viewport: { width: 1440, height: 900 },
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
    },
  },
});
