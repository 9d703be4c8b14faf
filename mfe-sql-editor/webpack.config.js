module.exports = require('@dash/shell-sdk/mf-preset.cjs').federatedConfig({ name: 'mfe_sql_editor', dir: __dirname, kind: 'remote' });
