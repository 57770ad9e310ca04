import '@gov-design-system-ce/styles/tokens.css';
import '@gov-design-system-ce/styles/styles.css';
import './styles/app.css';
import { StrictMode, startTransition } from 'react';
import { createRoot } from 'react-dom/client';
import { I18nextProvider } from 'react-i18next';
import { UNSAFE_createBrowserHistory } from 'react-router';
import { App, preloadPageAt } from './App';
import { GuardedRouter, guardHistory } from './shell/history';
import { createI18n } from './shell/i18n';
import { parseLang } from './shell/lang';
import { loadMetadata } from './shell/metadata';
import { nextTask } from './shell/tasks';

async function start() {
  const lang = parseLang(new URLSearchParams(window.location.search).get('lang'));
  document.documentElement.lang = lang;
  // Texts of the first language load before the first render: no flash of untranslated keys.
  // The page's own chunk and the metadata load meanwhile: the first paint is the page, not the
  // shell with a spinner (issue 29; shell/lazyPage.tsx). The texts and the metadata are announced
  // with the page (server routes/web.ts, pagePreloads): on their way before this script runs.
  //
  // The work of the load is cut into tasks, so that no one of them holds a phone's main thread
  // long (issue 37, Lighthouse's Total Blocking Time): the history is made in a task of its own
  // while the texts and the page's chunk are on their way (react-router's history records its
  // index with history.replaceState, milliseconds on a phone), and the first render starts in a
  // task after the one that evaluated the page's chunk (the form's: its rules and their schemas).
  const [i18n, metadata, , history] = await Promise.all([
    createI18n(lang),
    loadMetadata(),
    preloadPageAt(window.location.pathname),
    // react-router in declarative mode on a history the form can hold back ("leave?", shell/history.tsx).
    nextTask().then(() => guardHistory(UNSAFE_createBrowserHistory({ v5Compat: true }))),
  ]);
  await nextTask();
  const root = document.getElementById('root');
  if (!root) throw new Error('#root is missing from index.html');
  // The first render as a transition: React renders in slices of a few milliseconds, yielding to
  // the browser between them, instead of one long task that blocks a slow phone's main thread
  // (issue 29: Lighthouse's Total Blocking Time). What it shows is the same.
  const reactRoot = createRoot(root);
  startTransition(() =>
    reactRoot.render(
      <StrictMode>
        <I18nextProvider i18n={i18n}>
          <GuardedRouter history={history}>
            <App metadata={metadata} />
          </GuardedRouter>
        </I18nextProvider>
      </StrictMode>,
    ),
  );
}

void start();
