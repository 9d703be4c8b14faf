// @ts-check
// The linter `npm test` runs (node scripts/run.mjs lint): TypeScript's recommended rules, React's hook
// rules in the frontends, and the import boundaries of ARCHITECTURE.md: a remote imports only the SDK,
// the contracts and its own files; the shell never a remote; a service only the kit and the contracts.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import js from '@eslint/js';
import reactHooks from 'eslint-plugin-react-hooks';
import tseslint from 'typescript-eslint';

/** Relative paths that reach into another deployable unit's folder. */
const UNIT_FOLDERS = '(mfe-[\\w-]+|shell|contracts|services|kit|gateway|platform|pg-meta|storage|logs|rest|graphql|scripts|e2e|bench)';
const intoAnotherUnit = (message) => ({ regex: `^(\\.\\./)+(.*/)?${UNIT_FOLDERS}/`, message });

/**
 * The names `@dash/shell-sdk/ui` exports (read from the file, so there is one list). Apps import them from
 * there, bundled, not from the shared core: a remote that uses a new primitive then runs in an older shell.
 */
const SDK_UI_NAMES = [...readFileSync(new URL('./shell/sdk/ui.ts', import.meta.url), 'utf8').matchAll(/export \{([^}]*)\}/g)]
  .flatMap((match) => match[1].split(','))
  .map((name) => name.trim().replace(/^type\s+/, ''))
  .filter(Boolean);
const uiFromTheCore = {
  name: '@dash/shell-sdk',
  importNames: SDK_UI_NAMES,
  message: 'Import UI primitives from @dash/shell-sdk/ui: they are bundled with the app, the core is shared by the shell.',
};

/**
 * The React Router exports the shared router leaves out (shell/sdk/shared-router.cjs): in an app they would be
 * `undefined` at run time, so importing one is an error here.
 */
const { ROUTER_SERVER_AND_FRAMEWORK_EXPORTS } = createRequire(import.meta.url)('./shell/sdk/shared-router.cjs');
const routerServerParts = ['react-router', 'react-router-dom'].map((name) => ({
  name,
  importNames: [...ROUTER_SERVER_AND_FRAMEWORK_EXPORTS],
  message: 'The shared router leaves out React Router\'s server and framework parts (shell/sdk/shared-router.cjs).',
}));

/** `no-restricted-imports` for a unit that may use only the listed workspace packages. */
const boundary = (allowed, who, paths = []) => [
  'error',
  {
    paths,
    patterns: [
      { regex: `^@dash/(?!(${allowed.map((name) => name.slice('@dash/'.length)).join("|")})(/|$))`, message: `${who} imports only ${allowed.join(', ')} and its own files.` },
      intoAnotherUnit(`${who} imports only ${allowed.join(', ')} and its own files, never another unit's source.`),
    ],
  },
];

export default tseslint.config(
  { ignores: ['.data/**', '**/.data/**', 'bench/results/**', '**/dist/**', '**/node_modules/**', '**/coverage/**', 'e2e/test-results*/**', '.ci/**', '**/*.d.ts'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { ecmaVersion: 2023, sourceType: 'module' },
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
    },
  },
  {
    files: ['**/*.{js,cjs,mjs}'],
    languageOptions: {
      globals: { process: 'readonly', console: 'readonly', require: 'readonly', module: 'writable', __dirname: 'readonly', Buffer: 'readonly', URL: 'readonly', URLSearchParams: 'readonly', fetch: 'readonly', performance: 'readonly', setTimeout: 'readonly', clearTimeout: 'readonly', setInterval: 'readonly', clearInterval: 'readonly', AbortController: 'readonly', TextEncoder: 'readonly', TextDecoder: 'readonly', structuredClone: 'readonly', globalThis: 'readonly' },
    },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
  {
    files: ['shell/**/*.{ts,tsx}', 'mfe-*/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: { 'react-hooks/rules-of-hooks': 'error', 'react-hooks/exhaustive-deps': 'error' },
  },
  { files: ['mfe-*/**/*.{ts,tsx}'], rules: { 'no-restricted-imports': boundary(['@dash/shell-sdk', '@dash/contracts'], 'A remote', [uiFromTheCore, ...routerServerParts]) } },
  // A remote's database tests (templates run on a fresh project database) may use the kit's test database.
  {
    files: ['mfe-*/test/**/*.db.test.ts'],
    rules: { 'no-restricted-imports': boundary(['@dash/shell-sdk', '@dash/contracts', '@dash/service-kit/dist/testing'], "A remote's database test", [uiFromTheCore, ...routerServerParts]) },
  },
  {
    files: ['shell/src/**/*.{ts,tsx}', 'shell/test/**/*.{ts,tsx}'],
    rules: { 'no-restricted-imports': boundary(['@dash/shell-sdk', '@dash/contracts'], 'The shell', [uiFromTheCore, ...routerServerParts]) },
  },
  { files: ['shell/sdk/**/*.{ts,tsx}'], rules: { 'no-restricted-imports': boundary(['@dash/contracts'], 'The SDK', routerServerParts) } },
  { files: ['services/kit/**/*.ts'], rules: { 'no-restricted-imports': boundary(['@dash/contracts'], 'The service kit') } },
  {
    files: ['services/{gateway,platform,pg-meta,storage,logs,rest,graphql}/**/*.ts'],
    rules: { 'no-restricted-imports': boundary(['@dash/service-kit', '@dash/contracts'], 'A service') },
  },
  { files: ['contracts/**/*.ts'], rules: { 'no-restricted-imports': boundary([], 'The contracts package') } },
);
