// @ts-check
// The anchor of cold-load.bench.mjs: the shell and the table editor built as one ordinary webpack app,
// without Module Federation, from the same sources and with the same loaders, output names and page as
// the federated builds (the shared preset's config minus its federation plugin). The shell's one module
// that talks to the federation runtime is replaced by `loader.ts`, which imports the table editor.
const path = require('node:path');
const webpack = require('webpack');
const { ModuleFederationPlugin } = require('@module-federation/enhanced/webpack');
const { federatedConfig } = require('@dash/shell-sdk/mf-preset.cjs');

const shellDir = path.resolve(__dirname, '..', '..', 'shell');
const loader = path.join(shellDir, 'src', 'federation', 'loader');
const federated = federatedConfig({ name: 'shell', dir: shellDir, kind: 'host', title: 'Dashboard' });

module.exports = {
  ...federated,
  entry: { main: './src/main.tsx' },
  output: { ...federated.output, path: path.join(__dirname, 'dist'), filename: '[name].[contenthash:8].js' },
  plugins: [
    ...(federated.plugins ?? []).filter((plugin) => !(plugin instanceof ModuleFederationPlugin)),
    new webpack.NormalModuleReplacementPlugin(/\/loader$/, (resource) => {
      if (path.resolve(resource.context, resource.request) === loader) resource.request = path.join(__dirname, 'loader.ts');
    }),
  ],
};
