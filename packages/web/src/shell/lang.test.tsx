import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { renderApp } from '../test/render';
import { LangLink, parseLang, useLangNavigate, withLang } from './lang';

describe('withLang', () => {
  it('adds lang=en and keeps other parameters and the hash', () => {
    expect(withLang('/form?eid=eid#top', 'en')).toBe('/form?eid=eid&lang=en#top');
    expect(withLang('/', 'en')).toBe('/?lang=en');
  });

  it('drops the parameter for Czech, the default', () => {
    expect(withLang('/form?lang=en&eid=eid', 'cs')).toBe('/form?eid=eid');
    expect(withLang('/not-found', 'cs')).toBe('/not-found');
  });

  it('reads anything but en as Czech', () => {
    expect(parseLang('en')).toBe('en');
    expect(parseLang('de')).toBe('cs');
    expect(parseLang(null)).toBe('cs');
  });
});

function Probe() {
  const navigate = useLangNavigate();
  return (
    <>
      <LangLink to="/form?eid=eid">to form</LangLink>
      <button type="button" onClick={() => navigate('/duplikat')}>
        go duplicate
      </button>
    </>
  );
}

describe('language in links and navigation', () => {
  it('keeps lang=en in LangLink targets', async () => {
    renderApp({ path: '/?lang=en', children: <Probe /> });
    expect(await screen.findByRole('link', { name: 'to form' })).toHaveAttribute(
      'href',
      '/form?eid=eid&lang=en',
    );
  });

  it('keeps lang=en in programmatic navigation', async () => {
    renderApp({ path: '/?lang=en', children: <Probe /> });
    await userEvent.click(await screen.findByRole('button', { name: 'go duplicate' }));
    expect(screen.getByTestId('location')).toHaveTextContent('/duplikat?lang=en');
  });

  it('adds nothing in Czech', async () => {
    renderApp({ path: '/', children: <Probe /> });
    expect(await screen.findByRole('link', { name: 'to form' })).toHaveAttribute('href', '/form?eid=eid');
  });

  it('offers the other language in the header, on the same route, and sets <html lang>', async () => {
    renderApp({ path: '/duplikat' });
    const toEnglish = await screen.findByRole('link', { name: 'English' });
    expect(toEnglish).toHaveAttribute('lang', 'en');
    expect(toEnglish).toHaveAttribute('href', '/duplikat?lang=en');
    expect(document.documentElement.lang).toBe('cs');
    await userEvent.click(toEnglish);
    expect(screen.getByTestId('location')).toHaveTextContent('/duplikat?lang=en');
    const toCzech = await screen.findByRole('link', { name: 'Čeština' });
    expect(toCzech).toHaveAttribute('href', '/duplikat');
    expect(document.documentElement.lang).toBe('en');
  });

  it('redirects an unknown path to not-found, keeping the language', async () => {
    renderApp({ path: '/no/such/page?lang=en' });
    expect(await screen.findByRole('heading', { level: 1, name: 'Page not found' })).toBeInTheDocument();
    expect(screen.getByTestId('location')).toHaveTextContent('/not-found?lang=en');
    expect(screen.getByRole('link', { name: 'Go to the home page' })).toHaveAttribute('href', '/?lang=en');
  });

  it('replaces a page path in other case by its own, query kept; a path the server calls 404 is not-found (issue 22)', async () => {
    const first = renderApp({ path: '/Check?id=990000001x2070&lang=en' });
    await waitFor(() =>
      expect(screen.getByTestId('location')).toHaveTextContent('/check?id=990000001x2070&lang=en'),
    );
    first.unmount();
    // react-router matches without regard to case and decodes %6F: the page the server answered
    // 404 for must not show the form.
    const encoded = renderApp({ path: '/f%6Frm?lang=en' });
    expect(await screen.findByRole('heading', { level: 1, name: 'Page not found' })).toBeInTheDocument();
    expect(screen.getByTestId('location')).toHaveTextContent('/not-found?lang=en');
    encoded.unmount();
  });
});
