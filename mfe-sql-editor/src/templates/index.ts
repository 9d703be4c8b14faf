/**
 * The SQL editor's ready-made scripts: templates (one task each) and quickstarts (a small schema with
 * sample data). Every script runs on a fresh project database, with or without the default project's
 * demo data, as the project admin role, inside one transaction (as the editor runs text), can be run
 * again, and needs no other script (`test/templates.db.test.ts` runs each of them, alone and twice).
 */
export type { SqlScript } from './script';
export { SQL_TEMPLATES } from './templates';
export { SQL_QUICKSTARTS } from './quickstarts';
