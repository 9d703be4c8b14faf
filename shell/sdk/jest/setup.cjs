// jsdom lacks a few browser APIs the UI and react-data-grid use (toolchain note G7).
if (!globalThis.CSS) globalThis.CSS = { escape: (s) => String(s).replace(/[^a-zA-Z0-9_-]/g, (c) => '\\' + c), supports: () => false };
if (!globalThis.ResizeObserver) globalThis.ResizeObserver = class { observe() {} unobserve() {} disconnect() {} };
if (globalThis.Element && !globalThis.Element.prototype.scrollIntoView) globalThis.Element.prototype.scrollIntoView = () => {};
if (!globalThis.TextEncoder) Object.assign(globalThis, require('node:util'));
// The Module Federation preset defines this at build time; tests get a fixed label.
globalThis.__DASH_BUILD_LABEL__ = 'test';
// Pages and panels load when first opened (route `lazy`, React.lazy). In a test, that first import is
// transformed on the spot, which with a cold cache on a busy machine (a CI run) outlasts testing-library's
// 1 s default wait for `findBy…`/`waitFor`. They still return as soon as their condition holds.
require('@testing-library/dom').configure({ asyncUtilTimeout: 10_000 });
