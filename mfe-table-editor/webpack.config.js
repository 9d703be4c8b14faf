module.exports = require('@dash/shell-sdk/mf-preset.cjs').federatedConfig({ name: 'mfe_table_editor', dir: __dirname, kind: 'remote' });
