import { waitFor } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { findFinish, renderRequestForm } from '../test/requestForm';

// The bot check loads the ALTCHA web component, which jsdom cannot run.
vi.mock('./botcheck', () => ({
  getBotToken: vi.fn(async () => 't'),
  resetBotCheck: vi.fn(),
  BotCheckWidget: () => null,
}));

// Counts the renders of two sections the typing below does not touch.
const renders = vi.hoisted(() => ({ employer: 0, contact: 0 }));
vi.mock('./request/sections/EmployerSection', async (original) => {
  const m = await original<typeof import('./request/sections/EmployerSection')>();
  return {
    ...m,
    EmployerSection: () => {
      renders.employer++;
      return m.EmployerSection();
    },
  };
});
vi.mock('./request/sections/ContactSection', async (original) => {
  const m = await original<typeof import('./request/sections/ContactSection')>();
  return {
    ...m,
    ContactSection: () => {
      renders.contact++;
      return m.ContactSection();
    },
  };
});

const box = (id: string) => document.getElementById(id) as HTMLInputElement;

describe('step 2 renders (issue 14)', { timeout: 30000 }, () => {
  beforeEach(() => {
    renders.employer = 0;
    renders.contact = 0;
  });

  it('typing in a field re-renders no other section, the first keystroke included', async () => {
    const { user } = renderRequestForm();
    await findFinish();
    await waitFor(() => expect(renders.employer).toBeGreaterThan(0));
    renders.employer = 0;
    renders.contact = 0;
    // The first change makes the form "changed" (the leave question): a render of the form itself.
    await user.type(box('first_name'), 'Jana');
    await user.type(box('last_name'), 'Nová');
    expect(box('first_name')).toHaveValue('Jana');
    expect(renders).toEqual({ employer: 0, contact: 0 });
  });
});
