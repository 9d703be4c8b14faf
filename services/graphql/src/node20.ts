/**
 * PostGraphile 5 declares Node 22 and calls `Promise.withResolvers()` (Node 22+), which Node 20 lacks: without
 * it every list query fails with "Cannot read properties of undefined (reading 'items')". This adds the
 * standard method where it is missing; on Node 22 it does nothing. Imported before PostGraphile.
 */
if (typeof (Promise as { withResolvers?: unknown }).withResolvers !== 'function') {
  Object.defineProperty(Promise, 'withResolvers', {
    configurable: true,
    writable: true,
    value: function withResolvers<T>(this: PromiseConstructor) {
      let resolve!: (value: T | PromiseLike<T>) => void;
      let reject!: (reason?: unknown) => void;
      const promise = new this<T>((res, rej) => {
        resolve = res;
        reject = rej;
      });
      return { promise, resolve, reject };
    },
  });
}

// Grafast warns at load unless its mode is chosen; production mode skips development-only checks.
process.env.GRAPHILE_ENV ??= 'production';
