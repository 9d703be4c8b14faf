import { act, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { Provider } from 'react-redux';
import { storageRoutes, platformRoutes } from '@dash/contracts';
import { configureStore, type Middleware } from '@reduxjs/toolkit';
import { Button, createStore, errorMessage, rootReducer, routeRequest, sessionExpired, showToast, Toaster } from '../src';
import { baseApi, platformApi } from '../src/api';
import { mockFetch } from '../testing';

describe('routeRequest', () => {
  it('builds the gateway url, method, query and body of a contract route', () => {
    expect(routeRequest(storageRoutes.createBucket, { params: { ref: 'default' }, body: { id: 'a', public: true } })).toEqual({
      url: '/api/storage/default/buckets',
      method: 'POST',
      body: { id: 'a', public: true },
    });
  });

  it('drops empty query values', () => {
    expect(routeRequest(platformRoutes.listProjects, { query: { search: '', page: undefined, limit: 10 } })).toEqual({
      url: '/api/platform/projects',
      method: 'GET',
      params: { limit: 10 },
    });
  });
});

describe('errorMessage', () => {
  it('reads the service message, then falls back', () => {
    expect(errorMessage({ status: 400, data: { message: 'name is required' } })).toBe('name is required');
    expect(errorMessage({ status: 'FETCH_ERROR', error: 'TypeError: Failed to fetch' })).toBe('TypeError: Failed to fetch');
    expect(errorMessage(undefined, 'fallback')).toBe('fallback');
  });
});

describe('Button', () => {
  it('is disabled with a tooltip that explains why', () => {
    render(<Button disabledReason="You need additional permissions to create buckets">New bucket</Button>);
    const button = screen.getByRole('button', { name: 'New bucket' }) as HTMLButtonElement;
    expect(button.disabled).toBe(true);
    const tooltip = screen.getByRole('tooltip', { hidden: true });
    expect(tooltip.hidden).toBe(true);
    fireEvent.mouseEnter(button.parentElement!);
    expect(tooltip.hidden).toBe(false);
    expect(tooltip.textContent).toBe('You need additional permissions to create buckets');
  });
});

/** A store with the toaster on screen. */
function renderToaster() {
  const store = createStore();
  render(
    <Provider store={store}>
      <Toaster />
    </Provider>,
  );
  return store;
}

describe('store', () => {
  it('shows toasts and dismisses them', async () => {
    const store = renderToaster();
    act(() => {
      store.dispatch(showToast({ kind: 'success', message: 'Saved', durationMs: 50 }));
    });
    expect(screen.getByText('Saved')).toBeTruthy();
    await waitFor(() => expect(screen.queryByText('Saved')).toBeNull());
  });

  it('keeps the newest three toasts when more arrive at once', () => {
    const store = renderToaster();
    act(() => {
      for (const n of [1, 2, 3, 4, 5]) store.dispatch(showToast({ kind: 'success', message: `Done ${n}` }));
    });
    expect(screen.getAllByRole('status').map((toast) => toast.querySelector('.dash-toast__message')?.textContent)).toEqual(['Done 3', 'Done 4', 'Done 5']);
  });

  it('dispatches sessionExpired when a call answers 401', async () => {
    mockFetch({ 'GET /api/platform/projects/default/permissions': { status: 401, body: { statusCode: 401, error: 'Unauthorized', message: 'Sign in to continue' } } });
    const actions: string[] = [];
    const recorder: Middleware = () => (next) => (action) => {
      actions.push((action as { type: string }).type);
      return next(action);
    };
    const store = configureStore({ reducer: rootReducer, middleware: (getDefault) => getDefault().concat(baseApi.middleware, recorder) });
    const result = await store.dispatch(platformApi.endpoints.projectPermissions.initiate({ ref: 'default' }, { subscribe: false }));
    expect(result.error).toMatchObject({ status: 401 });
    expect(actions).toContain(sessionExpired.type);
  });

  it('does not expire the session on other errors', async () => {
    mockFetch({ 'GET /api/platform/projects/default/permissions': { status: 404, body: { statusCode: 404, error: 'Not Found', message: 'Project not found' } } });
    const actions: string[] = [];
    const recorder: Middleware = () => (next) => (action) => {
      actions.push((action as { type: string }).type);
      return next(action);
    };
    const store = configureStore({ reducer: rootReducer, middleware: (getDefault) => getDefault().concat(baseApi.middleware, recorder) });
    await store.dispatch(platformApi.endpoints.projectPermissions.initiate({ ref: 'default' }, { subscribe: false }));
    expect(actions).not.toContain(sessionExpired.type);
  });
});
