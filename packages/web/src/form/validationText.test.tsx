import { render, screen } from '@testing-library/react';
import { I18nextProvider } from 'react-i18next';
import { describe, expect, it } from 'vitest';
import { createTestI18n } from '../test/i18n';
import { useMessageText } from './validationText';

function Show({ k, max }: { k: string; max?: number }) {
  return <p>{useMessageText()(k, max)}</p>;
}

describe('useMessageText', () => {
  it('fills {max} and falls back to the unknown text', () => {
    render(
      <I18nextProvider i18n={createTestI18n('en')}>
        <Show k="maxlength" max={50} />
        <Show k="noSuchKey" />
      </I18nextProvider>,
    );
    expect(screen.getByText('Enter at most 50 characters.')).toBeInTheDocument();
    expect(screen.getByText('This value is not valid. Please check it.')).toBeInTheDocument();
  });
});
