// jsdom with Node's fetch classes, so RTK Query runs its real request path in component tests;
// tests replace only `fetch` itself (the network edge).
const { TestEnvironment } = require('jest-environment-jsdom');

class DashDomEnvironment extends TestEnvironment {
  constructor(config, context) {
    super(config, context);
    const g = this.global;
    for (const name of ['fetch', 'Request', 'Response', 'Headers', 'FormData', 'Blob', 'ReadableStream', 'TextEncoder', 'TextDecoder', 'AbortController', 'AbortSignal', 'structuredClone']) {
      if (globalThis[name]) g[name] = globalThis[name];
    }
  }
}

module.exports = DashDomEnvironment;
