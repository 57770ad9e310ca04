import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { renderApp, TEST_METADATA } from '../test/render';

describe('metadata at start', () => {
  it('shows an error screen in the current language with a working retry button', async () => {
    let fail = true;
    const consoleError = vi.spyOn(console, 'error').mockImplementation(() => {});
    const { fetchMock } = renderApp({
      path: '/?lang=en',
      api: {
        '/api/ros/metadata': () =>
          fail
            ? { status: 503, body: { error: { code: 'UNAVAILABLE', message: 'down' } } }
            : { status: 200, body: TEST_METADATA },
      },
    });
    expect(
      await screen.findByRole('heading', { level: 1, name: 'The service could not start' }),
    ).toBeVisible();
    expect(consoleError).toHaveBeenCalledWith(
      expect.stringContaining('/api/ros/metadata failed: 503 UNAVAILABLE'),
    );
    // The header and footer stay: never a blank page.
    expect(screen.getByRole('banner')).toBeVisible();
    expect(screen.getByRole('contentinfo')).toBeVisible();
    fail = false;
    await userEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'How do you want to apply?' })).toBeVisible();
    expect(fetchMock.mock.calls.filter(([url]) => String(url) === '/api/ros/metadata')).toHaveLength(2);
    consoleError.mockRestore();
  });

  it('shows the error screen in Czech on a network failure', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    renderApp({ path: '/', metadata: new TypeError('Failed to fetch') });
    expect(
      await screen.findByRole('heading', { level: 1, name: 'Službu se nepodařilo spustit' }),
    ).toBeVisible();
    expect(screen.getByRole('button', { name: 'Zkusit znovu' })).toBeVisible();
    vi.restoreAllMocks();
  });

  it('puts the year and the version from metadata in the footer', async () => {
    renderApp({ path: '/?lang=en' });
    expect(await screen.findByTestId('footer-version')).toHaveTextContent('version 1.2.3-test');
    expect(screen.getByTestId('footer-copyright')).toHaveTextContent(`© ${new Date().getFullYear()}`);
    expect(screen.getByRole('link', { name: 'ros@caa.gov.cz' })).toHaveAttribute(
      'href',
      'mailto:ros@caa.gov.cz',
    );
  });
});
