// Renders storage screens inside the shell's store, confirm dialog and toaster, with the current path
// shown, so tests can follow navigation without depending on what the destination page renders.
import type { ReactNode } from 'react';
import { render, screen } from '@testing-library/react';
import { Provider } from 'react-redux';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router-dom';
import { ConfirmProvider, Toaster, createStore } from '@dash/shell-sdk';
import { StorageRoutes, StorageSettingsRoutes } from '../src/StorageRoutes';

function LocationProbe() {
  return <output data-testid="location">{useLocation().pathname}</output>;
}

/** `routes` are <Route> elements under the router, at `url`. */
export function renderRoutes(url: string, routes: ReactNode) {
  return render(
    <Provider store={createStore()}>
      <ConfirmProvider>
        <MemoryRouter initialEntries={[url]}>
          <Routes>{routes}</Routes>
          <LocationProbe />
        </MemoryRouter>
        <Toaster />
      </ConfirmProvider>
    </Provider>,
  );
}

/** The storage area as the shell mounts it. */
export const renderStorage = (url: string) => renderRoutes(url, <Route path="/project/:ref/storage/*" element={<StorageRoutes />} />);

export const currentPath = () => screen.getByTestId('location').textContent;

/** The storage settings area, as the shell mounts it inside the project settings. */
export const renderStorageSettings = (url: string) =>
  renderRoutes(url, <Route path="/project/:ref/settings/storage/*" element={<StorageSettingsRoutes />} />);
