import type { MetadataAnswer } from '@ros/domain';
import { createContext, type ReactNode, useCallback, useContext, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiRequestError, apiGet } from '../api/client';
import { Button } from '../components/Button';
import { Spinner } from '../components/Spinner';
import { useT } from './translate';

/** GET /api/ros/metadata: the API contract's shape (@ros/domain). */
export type Metadata = MetadataAnswer;

export type MetadataState =
  | { status: 'loading' }
  | { status: 'error'; error: ApiRequestError }
  | { status: 'ready'; metadata: Metadata };

interface MetadataContextValue {
  state: MetadataState;
  retry: () => void;
}

const MetadataContext = createContext<MetadataContextValue | null>(null);

function normalise(raw: Partial<Metadata> | null | undefined): Metadata {
  return {
    version: typeof raw?.version === 'string' ? raw.version : '',
    use_eid: raw?.use_eid === 'NO' ? 'NO' : 'YES',
    recaptchaSiteKey: typeof raw?.recaptchaSiteKey === 'string' ? raw.recaptchaSiteKey : '',
    botCheckProvider: raw?.botCheckProvider === 'recaptcha' ? 'recaptcha' : 'altcha',
  };
}

/** GET /api/ros/metadata, as the state the provider holds (never rejects). */
export async function loadMetadata(): Promise<MetadataState> {
  try {
    return { status: 'ready', metadata: normalise(await apiGet<Partial<Metadata>>('/metadata')) };
  } catch (error) {
    return {
      status: 'error',
      error: error instanceof ApiRequestError ? error : new ApiRequestError(0, 'UNKNOWN', String(error)),
    };
  }
}

/**
 * Loads the metadata once at start, unless main.tsx loaded it before the first render
 * (`initial`, issue 29: the first paint is the page, not a spinner); `retry()` loads it again
 * after a failure.
 */
export function MetadataProvider({ children, initial }: { children: ReactNode; initial?: MetadataState }) {
  const [state, setState] = useState<MetadataState>(initial ?? { status: 'loading' });
  const [attempt, setAttempt] = useState(0);

  useEffect(() => {
    if (attempt === 0 && initial !== undefined) return;
    let current = true;
    setState({ status: 'loading' });
    void loadMetadata().then((loaded) => current && setState(loaded));
    return () => {
      current = false;
    };
  }, [attempt, initial]);

  const { i18n } = useTranslation();
  const retry = useCallback(() => {
    // The translation file may have failed for the same reason (server unreachable).
    void i18n.reloadResources([i18n.language]);
    setAttempt((n) => n + 1);
  }, [i18n]);
  return <MetadataContext.Provider value={{ state, retry }}>{children}</MetadataContext.Provider>;
}

/** The loading state of the metadata (for the shell; screens use useMetadata()). */
export function useMetadataState(): MetadataContextValue {
  const context = useContext(MetadataContext);
  if (!context) throw new Error('useMetadataState must be used inside <MetadataProvider>');
  return context;
}

/** The loaded metadata. Screens render inside <MetadataGate>, so it is always there. */
export function useMetadata(): Metadata {
  const { state } = useMetadataState();
  if (state.status !== 'ready') throw new Error('useMetadata used before the metadata loaded');
  return state.metadata;
}

/**
 * Renders its children once the metadata is loaded; meanwhile a spinner, and when the
 * load failed a clear error screen with a retry button (never a blank page).
 */
export function MetadataGate({ children }: { children: ReactNode }) {
  const { state, retry } = useMetadataState();
  const { t } = useT();
  if (state.status === 'ready') return <>{children}</>;
  if (state.status === 'loading') return <Spinner label={t('SHELL.LOADING')} />;
  return (
    <section className="startup-error" aria-labelledby="startup-error-title">
      <h1 id="startup-error-title">{t('SHELL.STARTUP_ERROR.TITLE')}</h1>
      <p>{t('SHELL.STARTUP_ERROR.DESCRIPTION')}</p>
      <p>{t('SHELL.STARTUP_ERROR.HINT')}</p>
      <Button variant="primary" onClick={retry}>
        {t('SHELL.STARTUP_ERROR.RETRY')}
      </Button>
    </section>
  );
}
