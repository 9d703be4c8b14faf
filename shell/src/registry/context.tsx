import { createContext, useContext, type ReactNode } from 'react';
import type { Registry } from '@dash/contracts';

const RegistryContext = createContext<Registry | null>(null);

export function RegistryProvider({ registry, children }: { registry: Registry; children: ReactNode }) {
  return <RegistryContext.Provider value={registry}>{children}</RegistryContext.Provider>;
}

/** The validated registry of this page load: the areas of the side menu and their routes. */
export function useRegistry(): Registry {
  const registry = useContext(RegistryContext);
  if (!registry) throw new Error('useRegistry is used outside RegistryProvider');
  return registry;
}
