import { act, fireEvent, render, screen } from '@testing-library/react';
import { I18nextProvider } from 'react-i18next';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createTestI18n } from '../test/i18n';
import { AlertList, type AlertOptions, AlertsProvider, useAlerts } from './alerts';

function Trigger({ options }: { options: AlertOptions }) {
  const { show } = useAlerts();
  return (
    <button type="button" onClick={() => show(options)}>
      show
    </button>
  );
}

function setup(options: AlertOptions, lang: 'cs' | 'en' = 'en') {
  render(
    <I18nextProvider i18n={createTestI18n(lang)}>
      <AlertsProvider>
        <AlertList />
        <Trigger options={options} />
      </AlertsProvider>
    </I18nextProvider>,
  );
  fireEvent.click(screen.getByRole('button', { name: 'show' }));
}

describe('alerts', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('a warning or an error the person must act on never closes itself (WCAG 2.2.1)', () => {
    setup({ type: 'warning', key: 'ALERTS.DOCUMENT_INVALID' });
    act(() => vi.advanceTimersByTime(60_000));
    expect(screen.getByText(/We found no person/)).toBeInTheDocument();
  });

  it('a confirmation that needs nothing closes itself after 5000 ms by default', () => {
    setup({ type: 'success', key: 'ALERTS.FORM_INVALID' });
    const text = /The form has errors/;
    expect(screen.getByText(text)).toBeInTheDocument();
    act(() => vi.advanceTimersByTime(4999));
    expect(screen.getByText(text)).toBeInTheDocument();
    act(() => vi.advanceTimersByTime(1));
    expect(screen.queryByText(text)).not.toBeInTheDocument();
  });

  it('stays with timeout 0 until the user closes it with a real button', () => {
    setup({ type: 'warning', key: 'ALERTS.CHECK_VALIDITY_ERROR', timeout: 0 });
    act(() => vi.advanceTimersByTime(60_000));
    const text = screen.getByText(/could not check the certificate/);
    expect(text).toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: 'Close message' }));
    expect(screen.queryByText(/could not check the certificate/)).not.toBeInTheDocument();
  });

  it('honours a custom timeout', () => {
    setup({ type: 'info', key: 'ALERTS.FORM_INVALID', timeout: 1000 });
    act(() => vi.advanceTimersByTime(1000));
    expect(screen.queryByText(/The form has errors/)).not.toBeInTheDocument();
  });

  it('announces danger assertively and the rest politely', () => {
    setup({ type: 'danger', key: 'ALERTS.SUBMIT_FORM_ERROR' }, 'cs');
    const alert = screen.getByText(/Žádost se nepodařilo odeslat/);
    expect(alert.closest('[aria-live]')).toHaveAttribute('aria-live', 'assertive');
    fireEvent.click(screen.getByRole('button', { name: 'show' }));
    // The same message again replaces the first one instead of stacking.
    expect(screen.getAllByText(/Žádost se nepodařilo odeslat/)).toHaveLength(1);
  });

  it('puts warnings in the polite region', () => {
    setup({ type: 'warning', key: 'ALERTS.DOCUMENT_INVALID' });
    expect(screen.getByText(/We found no person/).closest('[aria-live]')).toHaveAttribute(
      'aria-live',
      'polite',
    );
  });

  it('fills values into the text', () => {
    setup({ type: 'info', key: 'VALIDATION.maxlength', values: { max: 50 } });
    expect(screen.getByText('Enter at most 50 characters.')).toBeInTheDocument();
  });
});
