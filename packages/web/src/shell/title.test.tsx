import { act, render, screen } from '@testing-library/react';
import { I18nextProvider } from 'react-i18next';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createTestI18n } from '../test/i18n';
import { TitleProvider, useCurrentHeaderTitle, useHeaderTitle, usePageTitle } from './title';

function View({ titleKey }: { titleKey: string }) {
  useHeaderTitle(titleKey);
  return null;
}

function HeaderText() {
  return <p data-testid="title">{useCurrentHeaderTitle()}</p>;
}

function setup(titleKey: string) {
  const i18n = createTestI18n('cs');
  const ui = (key: string) => (
    <I18nextProvider i18n={i18n}>
      <TitleProvider>
        <HeaderText />
        <View titleKey={key} />
      </TitleProvider>
    </I18nextProvider>
  );
  const result = render(ui(titleKey));
  return { rerender: (key: string) => result.rerender(ui(key)) };
}

describe('useHeaderTitle', () => {
  beforeEach(() => {
    vi.useFakeTimers();
    document.title = 'initial';
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('sets the header title and document title 200 ms after the view initialises', () => {
    setup('TITLE.DUPLICATE');
    act(() => vi.advanceTimersByTime(199));
    expect(screen.getByTestId('title')).toHaveTextContent('');
    expect(document.title).toBe('initial');
    act(() => vi.advanceTimersByTime(1));
    expect(screen.getByTestId('title')).toHaveTextContent(
      'Žádost o vydání duplikátu dokladu o spolehlivosti',
    );
    expect(document.title).toBe(
      'Žádost o vydání duplikátu dokladu o spolehlivosti | Úřad pro civilní letectví',
    );
  });

  it('waits another 200 ms when the view changes its title', () => {
    const { rerender } = setup('TITLE.DEFAULT');
    act(() => vi.advanceTimersByTime(200));
    rerender('TITLE.CHECK');
    act(() => vi.advanceTimersByTime(100));
    expect(screen.getByTestId('title')).toHaveTextContent('Žádost o vydání dokladu o spolehlivosti');
    act(() => vi.advanceTimersByTime(100));
    expect(screen.getByTestId('title')).toHaveTextContent('Ověření platnosti dokladu o spolehlivosti');
  });
});

function PageView({ pageKey }: { pageKey: string | null }) {
  useHeaderTitle('TITLE.DEFAULT');
  return pageKey ? <Named pageKey={pageKey} /> : null;
}
function Named({ pageKey }: { pageKey: string }) {
  usePageTitle(pageKey);
  return null;
}

describe('usePageTitle', () => {
  it('puts the page its own name first in the document title, while it is shown', () => {
    vi.useFakeTimers();
    const i18n = createTestI18n('en');
    const ui = (pageKey: string | null) => (
      <I18nextProvider i18n={i18n}>
        <TitleProvider>
          <HeaderText />
          <PageView pageKey={pageKey} />
        </TitleProvider>
      </I18nextProvider>
    );
    const result = render(ui('NOT_FOUND.TITLE'));
    act(() => vi.advanceTimersByTime(200));
    expect(document.title).toBe(
      'Page not found – Request for a background-check certificate | Civil Aviation Authority of the Czech Republic',
    );
    // The header band keeps the service's title.
    expect(screen.getByTestId('title')).toHaveTextContent('Request for a background-check certificate');
    result.rerender(ui(null));
    expect(document.title).toBe(
      'Request for a background-check certificate | Civil Aviation Authority of the Czech Republic',
    );
    vi.useRealTimers();
  });
});
