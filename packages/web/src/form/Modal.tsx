import type { ReactNode } from 'react';
import { useDialogFocus } from './useDialogFocus';

/**
 * An accessible modal dialog: role=dialog + aria-modal, labelled by its heading, focus moves
 * in on open, Tab cycles inside, Escape closes, and focus returns to where it was.
 */
export function Modal({
  titleId,
  title,
  onClose,
  closeLabel,
  children,
}: {
  titleId: string;
  title: string;
  onClose: () => void;
  closeLabel: string;
  children: ReactNode;
}) {
  const { ref, onKeyDown } = useDialogFocus(onClose);

  return (
    <div className="modal-backdrop">
      <div
        ref={ref}
        className="modal"
        role="dialog"
        aria-modal="true"
        aria-labelledby={titleId}
        aria-describedby={`${titleId}-text`}
        onKeyDown={onKeyDown}
      >
        <h2 id={titleId} className="modal__title">
          {title}
        </h2>
        {/* Its text is its description: read out with the name when focus enters (issue 27). */}
        <div id={`${titleId}-text`}>{children}</div>
        <div className="modal__actions">
          <button type="button" className="btn btn--primary btn--m" onClick={() => onClose()}>
            {closeLabel}
          </button>
        </div>
      </div>
    </div>
  );
}
