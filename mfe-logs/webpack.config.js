module.exports = require('@dash/shell-sdk/mf-preset.cjs').federatedConfig({ name: 'mfe_logs', dir: __dirname, kind: 'remote' });
