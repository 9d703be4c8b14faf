module.exports = require('@dash/shell-sdk/mf-preset.cjs').federatedConfig({ name: 'shell', dir: __dirname, kind: 'host', title: 'Dashboard' });
