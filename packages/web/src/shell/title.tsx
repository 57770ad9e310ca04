import { HEADER_TITLE_DELAY_MS } from '@ros/domain';
import { createContext, type ReactNode, useContext, useEffect, useMemo, useState } from 'react';
import { useT } from './translate';

interface TitleState {
  titleKey: string | null;
  /** What the page itself is (not found, sent): the document title says it first. */
  pageKey: string | null;
}

interface TitleSetters {
  setTitleKey: (key: string | null) => void;
  setPageKey: (key: string | null) => void;
}

// Two contexts: the pages only set the title (the setters never change), so a new title
// re-renders the header alone, not the page that set it (issue 29: the whole form, one long task
// on a slow phone, 200 ms after its first paint).
const TitleContext = createContext<TitleState | null>(null);
const TitleSettersContext = createContext<TitleSetters | null>(null);

export function TitleProvider({ children }: { children: ReactNode }) {
  const [titleKey, setTitleKey] = useState<string | null>(null);
  const [pageKey, setPageKey] = useState<string | null>(null);
  const value = useMemo(() => ({ titleKey, pageKey }), [titleKey, pageKey]);
  const setters = useMemo(() => ({ setTitleKey, setPageKey }), []);
  return (
    <TitleSettersContext.Provider value={setters}>
      <TitleContext.Provider value={value}>{children}</TitleContext.Provider>
    </TitleSettersContext.Provider>
  );
}

/**
 * Sets the header title (and the document title) to the text of `i18nKey`,
 * HEADER_TITLE_DELAY_MS (200 ms, spec section 9) after the calling view mounts or the key changes.
 */
export function useHeaderTitle(i18nKey: string): void {
  const context = useContext(TitleSettersContext);
  if (!context) throw new Error('useHeaderTitle must be used inside <TitleProvider>');
  const { setTitleKey } = context;
  useEffect(() => {
    const timer = setTimeout(() => setTitleKey(i18nKey), HEADER_TITLE_DELAY_MS);
    return () => clearTimeout(timer);
  }, [i18nKey, setTitleKey]);
}

/**
 * The page's own name for the document title, while the calling view is shown ("Page not
 * found – Request for … | Authority"): the tab and a screen reader's page list say where one is.
 */
export function usePageTitle(i18nKey: string): void {
  const context = useContext(TitleSettersContext);
  if (!context) throw new Error('usePageTitle must be used inside <TitleProvider>');
  const { setPageKey } = context;
  useEffect(() => {
    setPageKey(i18nKey);
    return () => setPageKey(null);
  }, [i18nKey, setPageKey]);
}

/** The header title text ('' until a view has set it) and keeps document.title in step. */
export function useCurrentHeaderTitle(): string {
  const context = useContext(TitleContext);
  const { t } = useT();
  const key = context?.titleKey ?? null;
  const text = key ? t(key) : '';
  const page = context?.pageKey ? t(context.pageKey) : '';
  useEffect(() => {
    if (!text) return;
    // A page whose band already says what it is (not found) is not named twice.
    document.title = `${page && page !== text ? `${page} – ` : ''}${text} | ${t('SHELL.AUTHORITY')}`;
  }, [text, page, t]);
  return text;
}
