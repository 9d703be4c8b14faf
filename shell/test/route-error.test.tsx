import { screen } from '@testing-library/react';
import { cleanupApi, mockFetch, renderShell } from './helpers';

jest.mock('../src/federation/loader', () => ({ registerRemotes: jest.fn(), loadRemote: jest.fn(), loadManifest: jest.fn() }));
// A shell page that crashes while rendering.
jest.mock('../src/pages/LegalPages', () => ({
  TermsPage: () => {
    throw new Error('Terms page crashed');
  },
  PrivacyPage: () => null,
}));

it('shows the full-page error as the router errorElement when a shell page crashes', async () => {
  const consoleError = jest.spyOn(console, 'error').mockImplementation(() => {});
  mockFetch({});
  const shell = renderShell('/terms');
  expect(await screen.findByRole('heading', { name: 'Something went wrong' })).toBeTruthy();
  expect(screen.getByTestId('error-code').textContent).toBe('UNEXPECTED_ERROR');
  expect(screen.getByText('Terms page crashed')).toBeTruthy();
  expect(screen.getByRole('button', { name: 'Back to projects' })).toBeTruthy();
  expect(screen.getByRole('button', { name: 'Submit a support request' })).toBeTruthy();
  await cleanupApi(shell.store);
  consoleError.mockRestore();
  jest.restoreAllMocks();
});
