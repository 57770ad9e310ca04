import { describe, expect, it, vi } from 'vitest';
import { findFinish, renderRequestForm } from '../../test/requestForm';

// The bot check loads the ALTCHA web component, which jsdom cannot run.
vi.mock('../botcheck', () => ({
  getBotToken: vi.fn(async () => 't'),
  resetBotCheck: vi.fn(),
  BotCheckWidget: () => null,
}));

const box = (id: string) => document.getElementById(id) as HTMLInputElement;
const attributes = (id: string) => ({
  type: box(id).getAttribute('type'),
  inputMode: box(id).getAttribute('inputmode'),
  autoComplete: box(id).getAttribute('autocomplete'),
});

describe("a text box takes its kind's input attributes (domain kinds.ts)", { timeout: 30000 }, () => {
  it('e-mail, telephone, birth number and free text', async () => {
    renderRequestForm();
    await findFinish();
    expect(attributes('email')).toEqual({ type: 'email', inputMode: 'email', autoComplete: 'email' });
    expect(attributes('telephone')).toEqual({ type: 'text', inputMode: 'tel', autoComplete: 'tel-national' });
    expect(attributes('birth_number')).toEqual({ type: 'text', inputMode: 'numeric', autoComplete: 'off' });
    // A section's own autocomplete stays (the first name's given-name).
    expect(attributes('first_name')).toEqual({ type: 'text', inputMode: null, autoComplete: 'given-name' });
    expect(attributes('document_number')).toEqual({ type: 'text', inputMode: null, autoComplete: 'off' });
  });
});
