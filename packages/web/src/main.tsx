import '@gov-design-system-ce/styles/tokens.css';
import '@gov-design-system-ce/styles/styles.css';
import './styles/app.css';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { I18nextProvider } from 'react-i18next';
import { UNSAFE_createBrowserHistory } from 'react-router';
import { App } from './App';
import { GuardedRouter, guardHistory } from './shell/history';
import { createI18n } from './shell/i18n';
import { parseLang } from './shell/lang';

async function start() {
  const lang = parseLang(new URLSearchParams(window.location.search).get('lang'));
  document.documentElement.lang = lang;
  // Texts of the first language load before the first render: no flash of untranslated keys.
  const i18n = await createI18n(lang);
  const root = document.getElementById('root');
  if (!root) throw new Error('#root is missing from index.html');
  // react-router in declarative mode on a history the form can hold back ("leave?", shell/history.tsx).
  const history = guardHistory(UNSAFE_createBrowserHistory({ v5Compat: true }));
  createRoot(root).render(
    <StrictMode>
      <I18nextProvider i18n={i18n}>
        <GuardedRouter history={history}>
          <App />
        </GuardedRouter>
      </I18nextProvider>
    </StrictMode>,
  );
}

void start();
