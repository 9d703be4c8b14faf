module.exports = require('@dash/shell-sdk/mf-preset.cjs').federatedConfig({ name: 'mfe_policies', dir: __dirname, kind: 'remote' });
