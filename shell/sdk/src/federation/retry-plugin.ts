import type { ModuleFederationRuntimePlugin } from '@module-federation/enhanced/runtime';

const ATTEMPTS = 3;
const BASE_DELAY_MS = 250;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Bounded retries for the manifest fetches Module Federation makes: a remote's static server that blips
 * (connection refused, 5xx) gets three tries with backoff. A 4xx is final, and a script that loaded but
 * threw is never retried here: the area's error panel offers Retry instead.
 */
export default function retryPlugin(): ModuleFederationRuntimePlugin {
  return {
    name: 'dash-retry-plugin',
    async fetch(url, init) {
      let lastError: unknown;
      for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
        if (attempt > 0) await sleep(BASE_DELAY_MS * 3 ** (attempt - 1));
        try {
          const response = await fetch(url, init);
          if (response.status < 500) return response;
          lastError = new Error(`${url} answered ${response.status}`);
        } catch (error) {
          lastError = error;
        }
      }
      throw lastError;
    },
  };
}
