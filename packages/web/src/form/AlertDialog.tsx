import { type ReactNode, useId } from 'react';
import { type DialogFocusOptions, useDialogFocus } from './useDialogFocus';

/**
 * A question the person must answer before going on (role alertdialog, aria-modal): named by
 * its title, described by its text (read out with the name when focus enters), then an
 * optional notice and the actions. Focus and keys as every dialog of the form
 * (useDialogFocus): Escape calls `onEscape`. Used by the leave question (LeaveDialog.tsx) and
 * the sign-in's end (nia/SessionWatch.tsx).
 */
export function AlertDialog({
  title,
  text,
  notice,
  actions,
  onEscape,
  focus,
  testId,
  phase,
}: {
  title: string;
  text: ReactNode;
  /** Shown between the text and the actions, outside the description (e.g. a failure). */
  notice?: ReactNode;
  actions: ReactNode;
  onEscape: () => void;
  focus?: DialogFocusOptions;
  testId: string;
  /** `data-phase`, for a dialog that changes what it asks. */
  phase?: string;
}) {
  const uid = useId().replace(/:/g, '');
  const { ref, onKeyDown } = useDialogFocus(onEscape, focus);
  return (
    <div className="modal-backdrop">
      <div
        ref={ref}
        className="modal"
        role="alertdialog"
        aria-modal="true"
        aria-labelledby={`${uid}-title`}
        aria-describedby={`${uid}-text`}
        onKeyDown={onKeyDown}
        data-testid={testId}
        data-phase={phase}
      >
        <h2 id={`${uid}-title`} className="modal__title">
          {title}
        </h2>
        <div id={`${uid}-text`}>{text}</div>
        {notice}
        <div className="modal__actions">{actions}</div>
      </div>
    </div>
  );
}
