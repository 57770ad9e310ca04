import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { renderApp } from '../test/render';
import { COOKIE_CONSENT_KEY } from './CookieBar';

describe('cookie bar', () => {
  for (const button of ['Přijmout vše', 'Jen nezbytné']) {
    it(`"${button}" stores consent and the bar does not come back`, async () => {
      const { unmount } = renderApp();
      expect(screen.getByRole('region', { name: 'Cookies na této stránce' })).toBeInTheDocument();
      await userEvent.click(screen.getByRole('button', { name: button }));
      expect(window.localStorage.getItem(COOKIE_CONSENT_KEY)).toBe('true');
      expect(screen.queryByRole('region', { name: 'Cookies na této stránce' })).not.toBeInTheDocument();
      unmount();
      renderApp();
      expect(await screen.findByRole('heading', { level: 1 })).toBeInTheDocument();
      expect(screen.queryByRole('region', { name: 'Cookies na této stránce' })).not.toBeInTheDocument();
    });
  }

  it('is reachable by keyboard, right after the skip link', async () => {
    renderApp({ path: '/?lang=en' });
    await userEvent.tab();
    expect(screen.getByRole('link', { name: 'Skip to main content' })).toHaveFocus();
    await userEvent.tab();
    await userEvent.tab();
    expect(screen.getByRole('button', { name: 'Accept all' })).toHaveFocus();
    await userEvent.keyboard('{Enter}');
    expect(window.localStorage.getItem(COOKIE_CONSENT_KEY)).toBe('true');
  });

  it('puts no heading before the page H1', async () => {
    renderApp({ path: '/?lang=en' });
    await screen.findByRole('heading', { level: 1 });
    const first = document.querySelector('h1, h2, h3, h4, h5, h6');
    expect(first?.tagName).toBe('H1');
  });

  it('shows again when the stored value is not "true"', () => {
    window.localStorage.setItem(COOKIE_CONSENT_KEY, 'false');
    renderApp();
    expect(screen.getByRole('region', { name: 'Cookies na této stránce' })).toBeInTheDocument();
  });
});
