module.exports = require('@dash/shell-sdk/mf-preset.cjs').federatedConfig({ name: 'mfe_storage', dir: __dirname, kind: 'remote' });
