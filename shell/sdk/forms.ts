/**
 * Helpers for forms built with react-final-form, bundled into each app that imports them (this subpath
 * is not shared), with that app's own react-final-form.
 */
export { KeepFieldsRegistered } from './src/forms/KeepRegistered';
