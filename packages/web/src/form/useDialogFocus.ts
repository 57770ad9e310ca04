import { type KeyboardEvent, type RefObject, useEffect, useRef } from 'react';

const FOCUSABLE =
  'a[href], button:not([disabled]), input:not([disabled]), select:not([disabled]), textarea:not([disabled]), [tabindex]:not([tabindex="-1"])';

export interface DialogFocusOptions {
  /** What takes focus on open; the first control when left out. */
  initialFocus?: RefObject<HTMLElement | null>;
  /** Put focus back where it was on close (default); false when the opener moves it itself. */
  returnFocus?: boolean;
}

/**
 * The keyboard and focus handling every modal dialog of the form shares (WAI-ARIA dialog
 * pattern): focus moves in on open, Tab and Shift+Tab cycle inside, Escape calls `onEscape`,
 * the page behind does not scroll, and focus returns on close. Put `ref` and `onKeyDown` on
 * the element with role dialog / alertdialog.
 */
export function useDialogFocus(onEscape: () => void, options: DialogFocusOptions = {}) {
  const ref = useRef<HTMLDivElement>(null);
  const escapeRef = useRef(onEscape);
  escapeRef.current = onEscape;
  // Read once, on open: the dialog's focus plan does not change while it is shown.
  const open = useRef(options);

  useEffect(() => {
    const { initialFocus, returnFocus = true } = open.current;
    const previous = returnFocus ? (document.activeElement as HTMLElement | null) : null;
    (initialFocus?.current ?? ref.current?.querySelector<HTMLElement>(FOCUSABLE))?.focus();
    const { overflow } = document.body.style;
    document.body.style.overflow = 'hidden';
    return () => {
      document.body.style.overflow = overflow;
      // The opener may have re-rendered: return focus if it is still in the page.
      if (previous?.isConnected) previous.focus();
    };
  }, []);

  const onKeyDown = (e: KeyboardEvent<HTMLElement>) => {
    if (e.key === 'Escape') {
      e.stopPropagation();
      escapeRef.current();
      return;
    }
    if (e.key !== 'Tab' || !ref.current) return;
    const items = [...ref.current.querySelectorAll<HTMLElement>(FOCUSABLE)];
    const first = items[0];
    const last = items[items.length - 1];
    if (!first || !last) return;
    if (e.shiftKey && (document.activeElement === first || !ref.current.contains(document.activeElement))) {
      e.preventDefault();
      last.focus();
    } else if (!e.shiftKey && document.activeElement === last) {
      e.preventDefault();
      first.focus();
    }
  };

  return { ref, onKeyDown };
}
