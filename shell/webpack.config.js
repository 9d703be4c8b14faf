// @ts-check
const HtmlWebpackPlugin = require('html-webpack-plugin');

const config = require('@dash/shell-sdk/mf-preset.cjs').federatedConfig({
  name: 'shell',
  dir: __dirname,
  kind: 'host',
  title: 'Dashboard',
});

// The shell answers deep links (/project/abc/editor) with the same index.html, so its script tags must
// be absolute: with the preset's `publicPath: 'auto'` html-webpack-plugin writes `main.js`, which the
// browser would resolve to /project/abc/main.js. Chunks still use 'auto' (derived from the script's URL).
for (const plugin of config.plugins ?? []) {
  if (plugin instanceof HtmlWebpackPlugin) plugin.options.publicPath = '/';
}

module.exports = config;
