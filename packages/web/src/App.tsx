import { APP_PATHS, canonicalAppPath } from '@ros/domain';
import { type ReactNode, Suspense } from 'react';
import { Navigate, Route, Routes, useLocation } from 'react-router';
import { Spinner } from './components/Spinner';
import { HomePage } from './home/HomePage';
import { NotFoundPage } from './not-found/NotFoundPage';
import type { ChunkedPath } from './pageSources';
import { AlertsProvider } from './shell/alerts';
import { Layout } from './shell/Layout';
import { useLang, withLang } from './shell/lang';
import { lazyPage } from './shell/lazyPage';
import { MetadataProvider, type MetadataState } from './shell/metadata';
import { TitleProvider } from './shell/title';
import { useT } from './shell/translate';

// FormPage receives the mode of the route (spec section 2: form vs. duplicate form).
// zod is set to jitless (zodJitless.ts: no eval under the pages' CSP) before the form's chunk is
// even loaded: a static import inside the chunk is not enough, since the bundler may evaluate the
// side-effect-free @ros/domain modules (whose object schemas zod builds at load) before it. Not in
// main.tsx: only the form builds schemas, and zod in the first chunk would cost every page (issue 14).
const FormPage = lazyPage<{ duplicate: boolean }>(() =>
  import('./zodJitless').then(() => import('./form/FormPage')),
);
const ValidityPage = lazyPage<object>(() => import('./validity/ValidityPage'));
const StatusPage = lazyPage<object>(() => import('./status/StatusPage'));

/** The page of each path that has a chunk of its own (the routes below; pageSources.ts names their modules). */
const PAGE_CHUNKS: Record<ChunkedPath, { preload: () => Promise<unknown> }> = {
  '/form': FormPage,
  '/duplikat/form': FormPage,
  '/duplicate/form': FormPage,
  '/check': ValidityPage,
  '/stav-zadosti': StatusPage,
  '/request-status': StatusPage,
};

/**
 * Loads the chunk of the page at `pathname` (main.tsx, before the first render); resolves also
 * when there is none or it fails to load (the route then loads it on demand, with its spinner
 * and, if it fails again, the error the app shows for a failed chunk).
 */
export function preloadPageAt(pathname: string): Promise<void> {
  const page = (PAGE_CHUNKS as Partial<Record<string, { preload: () => Promise<unknown> }>>)[pathname];
  return page
    ? page.preload().then(
        () => undefined,
        () => undefined,
      )
    : Promise.resolve();
}

function Lazy({ children }: { children: ReactNode }) {
  const { t } = useT();
  return <Suspense fallback={<Spinner label={t('FORM.LOADING')} />}>{children}</Suspense>;
}

/** Any unknown path goes to /not-found, keeping the language. */
function ToNotFound() {
  const lang = useLang();
  return <Navigate to={withLang('/not-found', lang)} replace />;
}

/**
 * The page at its own path only (issue 22), as the server decides (APP_PATHS of @ros/domain): a
 * page path in other case or with a trailing slash is replaced by its own (the server redirects it
 * too); any other path that is no page (react-router would match `/FORM` or `/f%6Frm` to the form)
 * goes to not-found, so what the app shows agrees with the status the server answered.
 */
function OwnPath({ children }: { children: ReactNode }) {
  const { pathname, search, hash } = useLocation();
  const lang = useLang();
  if ((APP_PATHS as readonly string[]).includes(pathname)) return children;
  const canonical = canonicalAppPath(pathname);
  if (canonical) return <Navigate to={`${canonical}${search}${hash}`} replace />;
  return <Navigate to={withLang('/not-found', lang)} replace />;
}

/** The routes of spec section 2. */
export function AppRoutes() {
  return (
    <OwnPath>
      <Routes>
        <Route index element={<HomePage duplicate={false} />} />
        <Route path="duplikat" element={<HomePage duplicate />} />
        <Route path="duplicate" element={<HomePage duplicate />} />
        <Route
          path="form"
          element={
            <Lazy>
              <FormPage duplicate={false} />
            </Lazy>
          }
        />
        <Route
          path="duplikat/form"
          element={
            <Lazy>
              <FormPage duplicate />
            </Lazy>
          }
        />
        <Route
          path="duplicate/form"
          element={
            <Lazy>
              <FormPage duplicate />
            </Lazy>
          }
        />
        <Route
          path="check"
          element={
            <Lazy>
              <ValidityPage />
            </Lazy>
          }
        />
        <Route
          path="stav-zadosti"
          element={
            <Lazy>
              <StatusPage />
            </Lazy>
          }
        />
        <Route
          path="request-status"
          element={
            <Lazy>
              <StatusPage />
            </Lazy>
          }
        />
        <Route path="not-found" element={<NotFoundPage />} />
        <Route path="*" element={<ToNotFound />} />
      </Routes>
    </OwnPath>
  );
}

/**
 * The app, inside a router on a guarded history (main.tsx, shell/history.tsx) and an i18next
 * provider; tests use a guarded memory history (src/test/render.tsx). `metadata`: loaded before
 * the first render (main.tsx); without it the app loads it itself.
 */
export function App({ metadata }: { metadata?: MetadataState }) {
  return (
    <MetadataProvider initial={metadata}>
      <TitleProvider>
        <AlertsProvider>
          <Layout>
            <AppRoutes />
          </Layout>
        </AlertsProvider>
      </TitleProvider>
    </MetadataProvider>
  );
}
