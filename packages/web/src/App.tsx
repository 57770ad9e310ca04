import { type ComponentType, lazy, type ReactNode, Suspense } from 'react';
import { Navigate, Route, Routes } from 'react-router';
import { Spinner } from './components/Spinner';
import { HomePage } from './home/HomePage';
import { NotFoundPage } from './not-found/NotFoundPage';
import { AlertsProvider } from './shell/alerts';
import { Layout } from './shell/Layout';
import { useLang, withLang } from './shell/lang';
import { MetadataProvider } from './shell/metadata';
import { TitleProvider } from './shell/title';
import { useT } from './shell/translate';

// FormPage receives the mode of the route (spec section 2: form vs. duplicate form).
// zod is set to jitless (zodJitless.ts: no eval under the pages' CSP) before the form's chunk is
// even loaded: a static import inside the chunk is not enough, since the bundler may evaluate the
// side-effect-free @ros/domain modules (whose object schemas zod builds at load) before it. Not in
// main.tsx: only the form builds schemas, and zod in the first chunk would cost every page (issue 14).
const FormPage = lazy<ComponentType<{ duplicate: boolean }>>(() =>
  import('./zodJitless').then(() => import('./form/FormPage')),
);
const ValidityPage = lazy(() => import('./validity/ValidityPage'));

function Lazy({ children }: { children: ReactNode }) {
  const { t } = useT();
  return <Suspense fallback={<Spinner label={t('FORM.LOADING')} />}>{children}</Suspense>;
}

/** Any unknown path goes to /not-found, keeping the language. */
function ToNotFound() {
  const lang = useLang();
  return <Navigate to={withLang('/not-found', lang)} replace />;
}

/** The routes of spec section 2. */
export function AppRoutes() {
  return (
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
      <Route path="not-found" element={<NotFoundPage />} />
      <Route path="*" element={<ToNotFound />} />
    </Routes>
  );
}

/**
 * The app, inside a router on a guarded history (main.tsx, shell/history.tsx) and an i18next
 * provider; tests use a guarded memory history (src/test/render.tsx).
 */
export function App() {
  return (
    <MetadataProvider>
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
