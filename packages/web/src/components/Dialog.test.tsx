import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { Dialog, type DialogLayer } from './Dialog';

/** A page with an opener button and a dialog it opens; `close` inside closes it. */
function Page({ onCancel, layer }: { onCancel?: () => void; layer?: DialogLayer }) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <button type="button" onClick={() => setOpen(true)}>
        Open
      </button>
      {open && (
        <Dialog
          title="Title"
          text={<p>Text</p>}
          testId="d"
          layer={layer}
          onCancel={
            onCancel
              ? () => {
                  onCancel();
                  setOpen(false);
                }
              : undefined
          }
          actions={
            <>
              <button type="button" onClick={() => setOpen(false)}>
                First
              </button>
              <button type="button">Last</button>
            </>
          }
        />
      )}
    </>
  );
}

/** The dialog's opener is gone when it closes: focus goes to the finish button. */
function Gone() {
  const [step, setStep] = useState(0);
  return (
    <>
      <button type="button" id="finish">
        Finish
      </button>
      {step === 0 && (
        <button type="button" onClick={() => setStep(1)}>
          Open
        </button>
      )}
      {step === 1 && (
        <Dialog
          title="T"
          testId="g"
          returnFocus={{ to: () => document.getElementById('finish') }}
          actions={
            <button type="button" onClick={() => setStep(2)}>
              Done
            </button>
          }
        />
      )}
    </>
  );
}

describe('Dialog (the one modal dialog, native <dialog>; jsdom through test/dialog.ts)', () => {
  it('opens modal, named and described, focus on its first control; Tab cycles; closing returns focus', async () => {
    const user = userEvent.setup();
    render(<Page />);
    const opener = screen.getByRole('button', { name: 'Open' });
    await user.click(opener);
    const dialog = screen.getByRole('dialog', { name: 'Title', description: 'Text' });
    expect(dialog).toHaveProperty('open', true);
    expect(screen.getByRole('button', { name: 'First' })).toHaveFocus();
    await user.tab();
    expect(screen.getByRole('button', { name: 'Last' })).toHaveFocus();
    await user.tab();
    expect(screen.getByRole('button', { name: 'First' })).toHaveFocus();
    await user.tab({ shift: true });
    expect(screen.getByRole('button', { name: 'Last' })).toHaveFocus();
    await user.click(screen.getByRole('button', { name: 'First' }));
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(opener).toHaveFocus();
  });

  it('Escape is the cancel event: it calls onCancel, and without one the dialog stays', async () => {
    const user = userEvent.setup();
    const onCancel = vi.fn();
    const { unmount } = render(<Page onCancel={onCancel} />);
    await user.click(screen.getByRole('button', { name: 'Open' }));
    await user.keyboard('{Escape}');
    expect(onCancel).toHaveBeenCalledOnce();
    expect(screen.queryByRole('dialog')).toBeNull();
    unmount();

    render(<Page />);
    await user.click(screen.getByRole('button', { name: 'Open' }));
    await user.keyboard('{Escape}');
    expect(screen.getByRole('dialog')).toHaveProperty('open', true);
  });

  it('focus goes to the opener-given target when where it came from is gone', async () => {
    const user = userEvent.setup();
    render(<Gone />);
    await user.click(screen.getByRole('button', { name: 'Open' }));
    await user.click(screen.getByRole('button', { name: 'Done' }));
    expect(screen.getByRole('button', { name: 'Finish' })).toHaveFocus();
  });
});
