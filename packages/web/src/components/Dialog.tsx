import './Dialog.css';
import { type KeyboardEvent, type ReactNode, type RefObject, useId, useLayoutEffect, useRef } from 'react';

/**
 * Which layer a dialog opens in: the session dialogs (the NIA sign-in's warning and end) are
 * above everything the page opens, also the confirmation dialog that was open first.
 */
export type DialogLayer = 'page' | 'session';

const FOCUSABLE =
  'a[href], button:not([disabled]), input:not([disabled]), select:not([disabled]), textarea:not([disabled]), [tabindex]:not([tabindex="-1"])';

interface Open {
  el: HTMLDialogElement;
  layer: DialogLayer;
}

/**
 * Every open dialog of the app, bottom first. The browser's top layer paints the dialog shown
 * last on top and makes everything else inert; a dialog of a lower layer shown later (the
 * confirmation dialog while a session dialog is open) goes under it: the stack shows the
 * higher ones again, which puts them back on top.
 */
const stack: Open[] = [];
let bodyOverflow = '';

function push(entry: Open): void {
  const rank = (o: Open) => (o.layer === 'session' ? 1 : 0);
  const at = stack.findIndex((o) => rank(o) > rank(entry));
  if (stack.length === 0) {
    // The page behind does not scroll while a dialog is open.
    bodyOverflow = document.body.style.overflow;
    document.body.style.overflow = 'hidden';
  }
  entry.el.showModal();
  if (at === -1) {
    stack.push(entry);
    return;
  }
  stack.splice(at, 0, entry);
  const active = document.activeElement;
  // Their `close` events come later, when they are open again: the dialogs ignore them.
  for (const above of stack.slice(at + 1)) {
    above.el.close();
    above.el.showModal();
  }
  // Focus stays where it was in the top dialog (showing it again moved it to its first control).
  if (active instanceof HTMLElement && stack[stack.length - 1]?.el.contains(active)) active.focus();
}

function remove(el: HTMLDialogElement): void {
  const i = stack.findIndex((o) => o.el === el);
  if (i !== -1) stack.splice(i, 1);
  if (stack.length === 0) document.body.style.overflow = bodyOverflow;
}

export interface DialogProps {
  title: ReactNode;
  /** The dialog's text: its description, read out with its name when focus enters. */
  text?: ReactNode;
  /** Between the text and the actions, outside the description (a failure, the form of the dialog). */
  children?: ReactNode;
  actions: ReactNode;
  /** After the actions (e.g. a status region that says "Sending…"). */
  after?: ReactNode;
  /** `alertdialog`: a question the person must answer (the leave question, the session's end). */
  role?: 'dialog' | 'alertdialog';
  /** Escape (the `cancel` event): left out, Escape does nothing (a choice is needed). */
  onCancel?: () => void;
  /** What takes focus on open; the title when `'title'`; the first control when left out. */
  initialFocus?: RefObject<HTMLElement | null> | 'title';
  /**
   * Where focus goes on close: where it was when the dialog opened (default), unless that is gone
   * from the page; then (or always, with `force`) to this element.
   */
  returnFocus?: { to: () => HTMLElement | null; force?: boolean };
  layer?: DialogLayer;
  /** More ids than the text's that describe the dialog, read first (e.g. a warning above it). */
  describedBy?: string;
  testId: string;
  /** Data attributes and aria-busy for the dialog element. */
  attrs?: { 'aria-busy'?: boolean; [data: `data-${string}`]: string | undefined };
}

/**
 * The app's one modal dialog, on the native `<dialog>` with `showModal()`: the top layer (a later
 * dialog above an earlier one, see `stack`), the rest of the page inert, Escape through the
 * `cancel` event (not while focus is still outside), focus moved in as it opens (before the
 * first paint, so no key is lost) and returned where it came from when it closes. Tab and
 * Shift+Tab cycle inside. Named by its title, described by its text.
 */
export function Dialog({
  title,
  text,
  children,
  actions,
  after,
  role = 'dialog',
  onCancel,
  initialFocus,
  returnFocus,
  layer = 'page',
  describedBy,
  testId,
  attrs,
}: DialogProps) {
  const uid = useId().replace(/:/g, '');
  const ref = useRef<HTMLDialogElement>(null);
  const titleRef = useRef<HTMLHeadingElement>(null);
  const cancelRef = useRef(onCancel);
  cancelRef.current = onCancel;
  // Read once, on open: the dialog's focus plan does not change while it is shown.
  const plan = useRef({ initialFocus, returnFocus, layer });

  useLayoutEffect(() => {
    const el = ref.current;
    if (!el) return;
    const { initialFocus: first, returnFocus: back, layer: at } = plan.current;
    const previous = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    push({ el, layer: at });
    const target = first === 'title' ? titleRef.current : first?.current;
    (target ?? el.querySelector<HTMLElement>(FOCUSABLE))?.focus();

    const onCancelEvent = (e: Event) => {
      e.preventDefault();
      cancelRef.current?.();
    };
    // The browser closes a dialog itself after a second Escape without a click between (close
    // watchers). While it is ours to show, it is shown again, with focus where it was.
    let lastFocus: HTMLElement | null = null;
    const onFocusIn = (e: FocusEvent) => {
      if (e.target instanceof HTMLElement) lastFocus = e.target;
    };
    const onClose = () => {
      if (!el.isConnected || el.open) return;
      el.showModal();
      lastFocus?.focus();
    };
    el.addEventListener('cancel', onCancelEvent);
    el.addEventListener('close', onClose);
    el.addEventListener('focusin', onFocusIn);
    return () => {
      el.removeEventListener('cancel', onCancelEvent);
      el.removeEventListener('close', onClose);
      el.removeEventListener('focusin', onFocusIn);
      remove(el);
      if (el.open) el.close();
      const home = back?.force ? null : previous?.isConnected && previous !== document.body ? previous : null;
      const to = home ?? back?.to() ?? null;
      // Only while focus is not already somewhere else the closing did not decide (e.g. a new view).
      const active = document.activeElement;
      if (to?.isConnected && (active === null || active === document.body || el.contains(active))) to.focus();
    };
  }, []);

  const onKeyDown = (e: KeyboardEvent<HTMLDialogElement>) => {
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

  const textId = `${uid}-text`;
  return (
    <dialog
      ref={ref}
      className={layer === 'session' ? 'modal modal--session' : 'modal'}
      role={role === 'alertdialog' ? 'alertdialog' : undefined}
      aria-modal="true"
      aria-labelledby={`${uid}-title`}
      aria-describedby={[describedBy, text ? textId : undefined].filter(Boolean).join(' ') || undefined}
      onKeyDown={onKeyDown}
      // A click on the backdrop or the dialog's own ground leaves focus where it is.
      onMouseDown={(e) => {
        if (e.target === e.currentTarget) e.preventDefault();
      }}
      data-testid={testId}
      {...attrs}
    >
      <h2
        id={`${uid}-title`}
        ref={titleRef}
        tabIndex={initialFocus === 'title' ? -1 : undefined}
        className="modal__title"
      >
        {title}
      </h2>
      {text && <div id={textId}>{text}</div>}
      {children}
      <div className="modal__actions">{actions}</div>
      {after}
    </dialog>
  );
}
