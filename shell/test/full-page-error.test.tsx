import { fireEvent, render, screen } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router-dom';
import { FullPageError } from '../src/errors/FullPageError';
import { mailtoHref } from '../src/pages/SupportPage';
import { cleanupApi, mockFetch, renderShell } from './helpers';

jest.mock('../src/federation/loader', () => ({ registerRemotes: jest.fn(), loadRemote: jest.fn(), loadManifest: jest.fn() }));

let shell: ReturnType<typeof renderShell> | undefined;
afterEach(async () => {
  if (shell) await cleanupApi(shell.store);
  shell = undefined;
  jest.restoreAllMocks();
});

function renderError(code: string | number, message: string) {
  const router = createMemoryRouter(
    [
      { path: '/oops', element: <FullPageError code={code} message={message} /> },
      { path: '/projects', element: <p>Projects page</p> },
      { path: '/support/new', element: <p>Support page</p> },
    ],
    { initialEntries: ['/oops'] },
  );
  render(<RouterProvider router={router} />);
  return router;
}

describe('full-page error', () => {
  it('shows "Something went wrong", the code, the message and two buttons', () => {
    renderError('REGISTRY_INVALID', 'registry/remotes/0 must have required property \'mount\'');
    expect(screen.getByRole('heading', { name: 'Something went wrong' })).toBeTruthy();
    expect(screen.getByTestId('error-code').textContent).toBe('REGISTRY_INVALID');
    expect(screen.getByText("registry/remotes/0 must have required property 'mount'")).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Back to projects' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Submit a support request' })).toBeTruthy();
  });

  it('goes back to the projects page', () => {
    const router = renderError(500, 'Boom');
    fireEvent.click(screen.getByRole('button', { name: 'Back to projects' }));
    expect(router.state.location.pathname).toBe('/projects');
  });

  it('opens a support request with the code and message', () => {
    const router = renderError(500, 'Database unavailable');
    fireEvent.click(screen.getByRole('button', { name: 'Submit a support request' }));
    expect(router.state.location.pathname).toBe('/support/new');
    const params = new URLSearchParams(router.state.location.search);
    expect(params.get('code')).toBe('500');
    expect(params.get('message')).toBe('Database unavailable');
  });

  it('answers an unknown path with 404 "Page not found"', async () => {
    mockFetch({});
    shell = renderShell('/no/such/page');
    expect(await screen.findByRole('heading', { name: 'Something went wrong' })).toBeTruthy();
    expect(screen.getByTestId('error-code').textContent).toBe('404');
    expect(screen.getByText('Page not found')).toBeTruthy();
  });
});

describe('support request page', () => {
  it('prefills the message with the error and explains that it opens the mail client', async () => {
    mockFetch({});
    shell = renderShell('/support/new?code=500&message=Database+unavailable');
    expect(await screen.findByRole('heading', { name: 'Submit a support request' })).toBeTruthy();
    expect((screen.getByLabelText('Subject') as HTMLInputElement).value).toBe('Dashboard error 500');
    const message = (screen.getByLabelText('Message') as HTMLTextAreaElement).value;
    expect(message).toContain('Error code: 500');
    expect(message).toContain('Error message: Database unavailable');
    expect(screen.getByText(/opens your mail client/)).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Open in mail client' })).toBeTruthy();
  });

  it('builds a mailto: link to support@example.com', () => {
    expect(mailtoHref('Dashboard error 500', 'Hello\nthere & more')).toBe(
      'mailto:support@example.com?subject=Dashboard%20error%20500&body=Hello%0Athere%20%26%20more',
    );
  });
});
