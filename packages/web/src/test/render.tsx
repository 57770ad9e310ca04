import { type RenderResult, render } from '@testing-library/react';
import type { ReactNode } from 'react';
import { I18nextProvider } from 'react-i18next';
import { UNSAFE_createMemoryHistory, useLocation } from 'react-router';
import { vi } from 'vitest';
import { AppRoutes } from '../App';
import { AlertsProvider } from '../shell/alerts';
import { GuardedRouter, guardHistory } from '../shell/history';
import { Layout } from '../shell/Layout';
import { parseLang } from '../shell/lang';
import { type Metadata, MetadataProvider } from '../shell/metadata';
import { TitleProvider } from '../shell/title';
import { createTestI18n } from './i18n';

export const TEST_METADATA: Metadata = {
  version: '1.2.3-test',
  use_eid: 'YES',
  recaptchaSiteKey: '',
  botCheckProvider: 'altcha',
};

type FetchAnswer = { status: number; body: unknown } | Error;

/**
 * Replaces window.fetch: each key is a URL path (without query), each value the answer.
 * Unlisted paths answer 404 in the server's error shape. Returns the mock for assertions.
 */
export function stubFetch(routes: Record<string, FetchAnswer | (() => FetchAnswer)>) {
  const mock = vi.fn(async (input: RequestInfo | URL, _init?: RequestInit) => {
    const url = new URL(
      typeof input === 'string' ? input : input instanceof URL ? input.href : input.url,
      'http://x',
    );
    const route = routes[url.pathname];
    const answer = typeof route === 'function' ? route() : route;
    if (answer instanceof Error) throw answer;
    const { status, body } = answer ?? {
      status: 404,
      body: { error: { code: 'NOT_FOUND', message: 'Not found' } },
    };
    return new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
  });
  vi.stubGlobal('fetch', mock);
  return mock;
}

/** Shows the current location so tests can assert where navigation went. */
export function LocationProbe() {
  const location = useLocation();
  return <output data-testid="location">{`${location.pathname}${location.search}`}</output>;
}

export interface RenderAppOptions {
  /** Initial URL, e.g. '/duplikat?lang=en'. */
  path?: string;
  /** What GET /api/ros/metadata answers; default TEST_METADATA. */
  metadata?: FetchAnswer;
  /** Extra API answers. */
  api?: Record<string, FetchAnswer | (() => FetchAnswer)>;
  /** Render this instead of the app's routes (inside the full shell). */
  children?: ReactNode;
  /** Texts beside the app's, by key ('FORM.FIELDS.pet_name'), in the page's language (a test's field). */
  texts?: Record<string, string>;
}

/** Renders the whole shell (providers, layout, routes) at `path`, with fetch stubbed. */
export function renderApp(options: RenderAppOptions = {}): RenderResult & {
  fetchMock: ReturnType<typeof stubFetch>;
  /** Navigates the app's (memory) history as the browser would, e.g. `router.navigate(-1)` for Back. */
  router: { navigate(to: string | number): void };
} {
  const path = options.path ?? '/';
  const fetchMock = stubFetch({
    '/api/ros/metadata': options.metadata ?? { status: 200, body: TEST_METADATA },
    ...options.api,
  });
  const lang = parseLang(new URL(path, 'http://x').searchParams.get('lang'));
  const i18n = createTestI18n(lang);
  for (const [key, text] of Object.entries(options.texts ?? {}))
    i18n.addResource(lang, 'translation', key, text);
  const shell = (
    <MetadataProvider>
      <TitleProvider>
        <AlertsProvider>
          <Layout>{options.children ?? <AppRoutes />}</Layout>
          <LocationProbe />
        </AlertsProvider>
      </TitleProvider>
    </MetadataProvider>
  );
  // A guarded history like the app's (main.tsx), in memory.
  const history = guardHistory(UNSAFE_createMemoryHistory({ initialEntries: [path], v5Compat: true }));
  const router = {
    navigate: (to: string | number) => (typeof to === 'number' ? history.go(to) : history.push(to)),
  };
  const result = render(
    <I18nextProvider i18n={i18n}>
      <GuardedRouter history={history}>{shell}</GuardedRouter>
    </I18nextProvider>,
  );
  return { ...result, fetchMock, router };
}
