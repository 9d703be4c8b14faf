import { useEffect, useState } from 'react';
import { Provider } from 'react-redux';
import { createBrowserRouter, RouterProvider, type RouteObject } from 'react-router-dom';
import { ConfirmProvider, Toaster } from '@dash/shell-sdk';
import { Spinner } from '@dash/shell-sdk/ui';
import type { Registry } from '@dash/contracts';
import { FullPageError } from './errors/FullPageError';
import { RegistryProvider } from './registry/context';
import { loadRegistry } from './registry/load';
import { RegistryError } from './registry/validate';
import { appRoutes } from './routes';
import type { ShellStore } from './store';

type Boot = { state: 'loading' } | { state: 'ready'; registry: Registry } | { state: 'failed'; code: string; message: string };

export interface ShellProps {
  store: ShellStore;
  /** Tests pass a memory router; the page has exactly one browser router. */
  createRouter?: (routes: RouteObject[]) => ReturnType<typeof createBrowserRouter>;
  /** Tests may pass a registry instead of fetching one. */
  registry?: Registry;
}

/** The page: one store, one confirm dialog, the toasts, the registry, one router. */
export function Shell({ store, createRouter = createBrowserRouter, registry }: ShellProps) {
  return (
    <Provider store={store}>
      <ConfirmProvider>
        <Boot createRouter={createRouter} registry={registry} />
        <Toaster />
      </ConfirmProvider>
    </Provider>
  );
}

/** Waits between tries while the registry cannot be fetched: 1 s, doubling to 10 s. */
export const registryRetryDelay = (attempt: number) => Math.min(1000 * 2 ** attempt, 10_000);

function Boot({ createRouter, registry }: Required<Pick<ShellProps, 'createRouter'>> & Pick<ShellProps, 'registry'>) {
  const [boot, setBoot] = useState<Boot>(registry ? { state: 'ready', registry } : { state: 'loading' });

  // An unreachable registry (the gateway restarting, say) is tried again until it loads, with the error
  // shown meanwhile; an invalid one is a deployment's mistake that retrying would not mend.
  useEffect(() => {
    if (registry) return;
    let live = true;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const attempt = (n: number) =>
      loadRegistry().then(
        (loaded) => live && setBoot({ state: 'ready', registry: loaded }),
        (error: unknown) => {
          if (!live) return;
          const code = error instanceof RegistryError ? error.code : 'REGISTRY_UNAVAILABLE';
          setBoot({ state: 'failed', code, message: error instanceof Error ? error.message : String(error) });
          if (code === 'REGISTRY_UNAVAILABLE') timer = setTimeout(() => void attempt(n + 1), registryRetryDelay(n));
        },
      );
    void attempt(0);
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [registry]);

  if (boot.state === 'failed') return <FullPageError code={boot.code} message={boot.message} retrying={boot.code === 'REGISTRY_UNAVAILABLE'} />;
  if (boot.state === 'loading') {
    return (
      <div className="shell-boot">
        <Spinner label="Loading dashboard" />
      </div>
    );
  }
  return (
    <RegistryProvider registry={boot.registry}>
      <App createRouter={createRouter} />
    </RegistryProvider>
  );
}

function App({ createRouter }: Required<Pick<ShellProps, 'createRouter'>>) {
  // Created once, after the registry is known, and kept for the life of the page.
  const [router] = useState(() => createRouter(appRoutes));
  return <RouterProvider router={router} />;
}
