import { render, screen } from '@testing-library/react';
import { I18nextProvider } from 'react-i18next';
import { describe, expect, it } from 'vitest';
import { createTestI18n } from '../test/i18n';
import { TextLinks } from './TextLinks';

describe('TextLinks', () => {
  it('puts the translated text of each <name> part into its element, the rest as text', () => {
    const { container } = render(
      <I18nextProvider i18n={createTestI18n('en')}>
        <p>
          <TextLinks
            i18nKey="CHECK.BOT_CHECK.RECAPTCHA"
            components={{
              // biome-ignore lint/a11y/useAnchorContent: TextLinks puts the translated text inside
              privacy: <a href="https://p.example/" />,
              // biome-ignore lint/a11y/useAnchorContent: TextLinks puts the translated text inside
              terms: <a href="https://t.example/" />,
            }}
          />
        </p>
      </I18nextProvider>,
    );
    expect(screen.getByRole('link', { name: 'Privacy Policy' })).toHaveAttribute(
      'href',
      'https://p.example/',
    );
    expect(screen.getByRole('link', { name: 'Terms of Service' })).toHaveAttribute(
      'href',
      'https://t.example/',
    );
    expect(container.textContent).toBe(
      "This site is protected by reCAPTCHA from Google. Google's Privacy Policy and Terms of Service apply.",
    );
  });
});
