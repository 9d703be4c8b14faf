// @ts-check
// One Module Federation build preset for the shell and every remote (ARCHITECTURE.md, "Runtime composition").
const path = require('node:path');
const fs = require('node:fs');
const webpack = require('webpack');
const HtmlWebpackPlugin = require('html-webpack-plugin');
const { ModuleFederationPlugin } = require('@module-federation/enhanced/webpack');

/**
 * What the apps on a page share. Only what must be one instance is a singleton: React, the router, the
 * store and the SDK's core (`baseApi`, the root reducer, the toast and confirm contexts). `@dash/contracts`
 * is data and pure functions: each app bundles the version it was built with (its ES module build,
 * tree-shaken), so a remote never depends on the shell having new contract exports. TypeBox is shared
 * without being a singleton: apps built with the same version load it once, a different version brings
 * its own copy. A trailing slash shares the package's subpaths too.
 */
const SINGLETONS = [
  'react',
  'react/',
  'react-dom',
  'react-dom/',
  'react-router',
  'react-router-dom',
  'react-redux',
  '@reduxjs/toolkit',
  '@reduxjs/toolkit/',
  '@dash/shell-sdk',
];
const SHARED_COPIES = ['@sinclair/typebox'];
const SHARED = [...SINGLETONS, ...SHARED_COPIES];

const { ROUTER_SERVER_AND_FRAMEWORK_EXPORTS } = require('./shared-router.cjs');

/**
 * The modules an app provides for `react-router` and `react-router-dom`: generated files that re-export
 * the browser API from the package's own files (absolute paths, so the sharing plugin does not take them
 * for the shared request itself). `react-router-dom` differs only by its RouterProvider, which renders
 * through react-dom's `flushSync`.
 * @param {string} dir
 */
function routerEntries(dir) {
  const routerMain = require.resolve('react-router', { paths: [dir] });
  const routerModule = path.join(path.dirname(routerMain), 'index.mjs');
  const domModule = path.join(path.dirname(routerMain), 'dom-export.mjs');
  const names = Object.keys(require(routerMain)).filter((name) => !ROUTER_SERVER_AND_FRAMEWORK_EXPORTS.has(name));
  const folder = path.join(__dirname, '..', '..', 'node_modules', '.cache', 'dash-shared-router');
  fs.mkdirSync(folder, { recursive: true });
  /**
   * @param {string} file
   * @param {string} text
   */
  const write = (file, text) => {
    const target = path.join(folder, file);
    if (!fs.existsSync(target) || fs.readFileSync(target, 'utf8') !== text) fs.writeFileSync(target, text);
    return target;
  };
  /**
   * @param {string[]} list
   * @param {string} from
   */
  const reexport = (list, from) => `export { ${list.join(', ')} } from ${JSON.stringify(from)};\n`;
  return {
    'react-router': write('react-router.mjs', reexport(names, routerModule)),
    'react-router-dom': write(
      'react-router-dom.mjs',
      reexport(names.filter((name) => name !== 'RouterProvider'), routerModule) + reexport(['RouterProvider'], domModule),
    ),
  };
}

/**
 * The SDK core range an app needs: what its package.json declares for `@dash/shell-sdk` (a caret range
 * such as `^1.1.0`). It goes into the remote's mf-manifest.json, where the shell reads it before loading
 * the remote (shell/src/federation/compatibility.ts).
 * @param {string} dir
 */
function sdkRange(dir) {
  const own = require(path.join(dir, 'package.json'));
  const declared = own.dependencies?.['@dash/shell-sdk'];
  if (own.name === '@dash/shell-sdk' || !declared) return undefined;
  if (!/^\^\d+\.\d+\.\d+$/.test(declared)) {
    throw new Error(`${own.name}: declare @dash/shell-sdk as a caret range (^major.minor.patch), not "${declared}"`);
  }
  return declared;
}

/**
 * The installed version of a package as `dir` resolves it. Packages whose `exports` hide package.json
 * (TypeBox) are found by walking up from their entry point.
 * @param {string} pkg
 * @param {string} dir
 */
function installedVersion(pkg, dir) {
  let folder = path.dirname(require.resolve(pkg, { paths: [dir] }));
  for (;;) {
    const candidate = path.join(folder, 'package.json');
    if (fs.existsSync(candidate)) {
      const json = JSON.parse(fs.readFileSync(candidate, 'utf8'));
      if (json.name === pkg) return json.version;
    }
    const parent = path.dirname(folder);
    if (parent === folder) throw new Error(`cannot find the package.json of ${pkg} from ${dir}`);
    folder = parent;
  }
}

/** @param {string} dir */
function sharedConfig(dir) {
  /** @type {Record<string, object>} */
  const shared = {};
  /** @type {Record<string, string>} */
  const entries = routerEntries(dir);
  for (const key of SHARED) {
    const pkg = key.replace(/\/$/, '');
    const version = installedVersion(pkg, dir);
    const major = version.split('.')[0];
    const singleton = SINGLETONS.includes(key);
    shared[key] = {
      singleton,
      requiredVersion: (pkg === '@dash/shell-sdk' && sdkRange(dir)) || (singleton ? `^${major}.0.0` : version),
      // Two Reacts on a page break hooks: refuse a mismatched major rather than load a second copy.
      strictVersion: pkg === 'react' || pkg === 'react-dom',
      // A generated entry has no package.json of its own: it provides the installed package's version.
      ...(entries[key] ? { import: entries[key], version } : {}),
    };
  }
  return shared;
}

/**
 * @param {{
 *   name: string,            // Module Federation name, e.g. 'mfe_logs'
 *   dir: string,             // the app's folder
 *   kind: 'host' | 'remote',
 *   title?: string,          // host page title
 * }} options
 * @returns {import('webpack').Configuration}
 */
function federatedConfig({ name, dir, kind, title }) {
  const isHost = kind === 'host';
  return {
    mode: process.env.NODE_ENV === 'development' ? 'development' : 'production',
    context: dir,
    entry: isHost ? { main: './src/index.ts' } : {},
    devtool: 'source-map',
    output: {
      path: path.join(dir, 'dist'),
      publicPath: 'auto',
      uniqueName: name,
      // webpack >= 5.111 hashes runtime modules before chunks have a content hash, and the federation
      // runtime resolves its own chunk's filename then, so `[contenthash]` fails the host build for the
      // chunk that holds the runtime (module-federation/core#5077). That chunk keeps a stable name and is
      // cache-busted by the `?hash` the html plugin appends; every other chunk keeps its content hash.
      filename: (pathData) =>
        pathData.chunk && 'hasRuntime' in pathData.chunk && pathData.chunk.hasRuntime() ? '[name].js' : '[name].[contenthash:8].js',
      chunkFilename: '[name].[contenthash:8].js',
      clean: true,
    },
    resolve: { extensions: ['.tsx', '.ts', '.js', '.mjs'] },
    module: {
      rules: [
        {
          test: /\.tsx?$/,
          exclude: /node_modules/,
          use: {
            loader: 'swc-loader',
            options: {
              jsc: {
                parser: { syntax: 'typescript', tsx: true },
                transform: { react: { runtime: 'automatic' } },
                target: 'es2020',
              },
            },
          },
        },
        // A stylesheet import is all side effect: kept even from packages that declare `sideEffects: false` (graphiql).
        { test: /\.css$/, sideEffects: true, use: ['style-loader', 'css-loader'] },
      ],
    },
    performance: { hints: false },
    plugins: [
      new ModuleFederationPlugin({
        name,
        filename: 'remoteEntry.js',
        manifest: true,
        dts: false,
        shareStrategy: 'loaded-first',
        experiments: {
          asyncStartup: true,
          // Leaves the runtime's Node.js loading out of every build. A remote loads no remotes itself, so its
          // runtime also goes without remote loading and manifest snapshots (the shell keeps both: it loads
          // remotes by their mf-manifest.json).
          optimization: { target: 'web', disableRemote: !isHost, disableSnapshot: !isHost },
        },
        exposes: isHost ? undefined : { './module': './src/module.tsx' },
        // The shell's copies of the shared packages are in every first screen, so they go into its main
        // chunk (one request, compressed together) instead of a chunk each. They are still offered to
        // remotes through the share scope; a remote's own copies stay separate chunks, loaded only if needed.
        shared: isHost ? Object.fromEntries(Object.entries(sharedConfig(dir)).map(([key, config]) => [key, { ...config, eager: true }])) : sharedConfig(dir),
        runtimePlugins: isHost ? [require.resolve('./src/federation/retry-plugin.ts')] : [],
      }),
      new webpack.DefinePlugin({ __DASH_BUILD_LABEL__: JSON.stringify(process.env.DASH_BUILD_LABEL ?? '') }),
      // The host answers deep links (/project/abc/editor) with the same index.html, so its script tags are
      // absolute; chunks still load relative to the script's own URL ('auto').
      ...(isHost
        ? [
            new HtmlWebpackPlugin({
              title: title ?? 'Dashboard',
              templateContent: htmlTemplate(title ?? 'Dashboard'),
              publicPath: '/',
              hash: true,
              // The product mark as the tab icon (copied next to index.html, linked from it).
              ...(fs.existsSync(path.join(dir, 'favicon.svg')) ? { favicon: path.join(dir, 'favicon.svg') } : {}),
            }),
          ]
        : []),
    ],
  };
}

/** @param {string} title */
function htmlTemplate(title) {
  return `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />
    <title>${title}</title>
  </head>
  <body>
    <div id="root"></div>
  </body>
</html>`;
}

module.exports = { federatedConfig, sharedConfig };
