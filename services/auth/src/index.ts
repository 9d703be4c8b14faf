export { buildAuthApp, type AuthOptions } from './app';
export { allowedRedirect, globToRegExp } from './server/redirect';
export { renderTemplate } from './mail/templates';
