import {
  type CSSProperties,
  type ReactNode,
  type PointerEvent as ReactPointerEvent,
  useCallback,
  useEffect,
  useId,
  useLayoutEffect,
  useRef,
  useState,
} from 'react';
import './Tooltip.css';

/** Spec section 9: the gap between the trigger and the tooltip, in CSS pixels. */
export const TOOLTIP_OFFSET_PX = 7;
/** How long the tooltip waits after the pointer left, so the pointer can move onto it (WCAG 1.4.13). */
export const TOOLTIP_HIDE_DELAY_MS = 200;
/** The tooltip keeps this far from the edges of the viewport. */
export const TOOLTIP_VIEWPORT_MARGIN_PX = 8;

export type TooltipPosition = 'top' | 'bottom' | 'left' | 'right';
export type TooltipSize = 'small' | 'large';
export type TooltipTheme = 'light' | 'dark';

export interface TooltipProps {
  /** The text; null or empty = no tooltip (the trigger renders alone, without a description). */
  content: ReactNode;
  /** The preferred side; it flips to the opposite side when the viewport has no room. Default top. */
  position?: TooltipPosition;
  /** Maximum width: small (14rem) or large (22rem). Default small. */
  size?: TooltipSize;
  /** Default dark. */
  theme?: TooltipTheme;
  /**
   * A tap on a touch screen toggles the tooltip. Leave it on for info buttons; switch it off for
   * triggers whose tap does something else (remove a row, finish), where the text would only get in the way.
   */
  tapToggle?: boolean;
  /**
   * The trigger. Spread `describedBy` into its aria-describedby (undefined when there is no tooltip).
   * It must be one focusable element: the tooltip is placed against the first element child.
   */
  children: (describedBy: string | undefined) => ReactNode;
}

type Rect = { top: number; left: number; right: number; bottom: number; width: number; height: number };
type Size = { width: number; height: number };

export interface TooltipPlacement {
  position: TooltipPosition;
  top: number;
  left: number;
  /** Where the arrow points, from the tooltip's left (top/bottom) or top (left/right) edge. */
  arrow: number;
}

const OPPOSITE: Record<TooltipPosition, TooltipPosition> = {
  top: 'bottom',
  bottom: 'top',
  left: 'right',
  right: 'left',
};

const clamp = (value: number, min: number, max: number) => Math.max(min, Math.min(value, Math.max(min, max)));

/**
 * Where a tooltip of `tip` size goes next to `trigger` in a viewport: the preferred side, else the
 * opposite one, else (left/right on a narrow screen) below or above; with no room anywhere the side
 * with the most room. Along the other axis it is centred on the trigger and kept inside the viewport.
 */
export function placeTooltip(
  trigger: Rect,
  tip: Size,
  viewport: Size,
  preferred: TooltipPosition,
  offset = TOOLTIP_OFFSET_PX,
  margin = TOOLTIP_VIEWPORT_MARGIN_PX,
): TooltipPlacement {
  const room: Record<TooltipPosition, number> = {
    top: trigger.top - offset - margin - tip.height,
    bottom: viewport.height - margin - trigger.bottom - offset - tip.height,
    left: trigger.left - offset - margin - tip.width,
    right: viewport.width - margin - trigger.right - offset - tip.width,
  };
  const order: TooltipPosition[] = [preferred, OPPOSITE[preferred]];
  if (preferred === 'left' || preferred === 'right') order.push('bottom', 'top');
  const position =
    order.find((p) => room[p] >= 0) ??
    order.reduce((best, p) => (room[p] > room[best] ? p : best), order[0] as TooltipPosition);

  if (position === 'top' || position === 'bottom') {
    const centre = trigger.left + trigger.width / 2;
    const left = clamp(centre - tip.width / 2, margin, viewport.width - margin - tip.width);
    const top = position === 'top' ? trigger.top - offset - tip.height : trigger.bottom + offset;
    return { position, top, left, arrow: clamp(centre - left, 12, tip.width - 12) };
  }
  const middle = trigger.top + trigger.height / 2;
  const top = clamp(middle - tip.height / 2, margin, viewport.height - margin - tip.height);
  const left = position === 'left' ? trigger.left - offset - tip.width : trigger.right + offset;
  return { position, top, left, arrow: clamp(middle - top, 10, tip.height - 10) };
}

/** True when a tooltip placed at `p` with `size` overlaps `r`. */
function covers(p: TooltipPlacement, size: Size, r: Rect): boolean {
  return (
    p.left < r.left + r.width &&
    p.left + size.width > r.left &&
    p.top < r.top + r.height &&
    p.top + size.height > r.top
  );
}

/** True when focus came from the keyboard (a click focuses a button without :focus-visible). */
function focusVisible(el: Element): boolean {
  try {
    return el.matches(':focus-visible');
  } catch {
    return true;
  }
}

/**
 * An accessible tooltip (spec section 9; WAI-ARIA tooltip pattern, WCAG 1.4.13): shows on pointer
 * enter and on keyboard focus of its trigger, hides on pointer leave and blur, Escape hides it,
 * the pointer may move onto it (short grace delay), and on a touch screen a tap toggles it.
 * role="tooltip", linked from the trigger by aria-describedby. It stays in the page while hidden,
 * so screen readers read it as the trigger's description. Position fixed: no layout shift.
 */
export function Tooltip({
  content,
  position = 'top',
  size = 'small',
  theme = 'dark',
  tapToggle = true,
  children,
}: TooltipProps) {
  const id = `tooltip-${useId().replace(/:/g, '')}`;
  const anchorRef = useRef<HTMLSpanElement>(null);
  const tipRef = useRef<HTMLSpanElement>(null);
  const hideTimer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const lastPointer = useRef<string>('mouse');
  const [hovered, setHovered] = useState(false);
  const [focused, setFocused] = useState(false);
  const [tapped, setTapped] = useState(false);
  const [dismissed, setDismissed] = useState(false);
  const [place, setPlace] = useState<TooltipPlacement | null>(null);

  const active = content !== null && content !== undefined && content !== false && content !== '';
  const open = active && (hovered || focused || tapped) && !dismissed;

  const cancelHide = () => clearTimeout(hideTimer.current);
  const scheduleHide = () => {
    cancelHide();
    hideTimer.current = setTimeout(() => setHovered(false), TOOLTIP_HIDE_DELAY_MS);
  };
  useEffect(() => () => clearTimeout(hideTimer.current), []);

  const update = useCallback(() => {
    const trigger = anchorRef.current?.firstElementChild;
    const tip = tipRef.current;
    if (!trigger || !tip) return;
    const rect = trigger.getBoundingClientRect();
    const size = { width: tip.offsetWidth, height: tip.offsetHeight };
    const viewport = {
      width: document.documentElement.clientWidth || window.innerWidth,
      height: window.innerHeight,
    };
    let placed = placeTooltip(rect, size, viewport, position);
    // A tooltip never covers the field that has focus (WCAG 2.4.11, issue 27): the other side,
    // else it stays hidden while that field has focus.
    const active = document.activeElement;
    const focusedRect =
      active && active !== document.body && active !== trigger && !tip.contains(active)
        ? active.getBoundingClientRect()
        : null;
    if (focusedRect && covers(placed, size, focusedRect)) {
      const other = placeTooltip(rect, size, viewport, OPPOSITE[position]);
      if (!covers(other, size, focusedRect)) placed = other;
      else {
        setHovered(false);
        return;
      }
    }
    setPlace(placed);
  }, [position]);

  // Placed before paint, and again while the page scrolls or resizes, or the tooltip's text or
  // the trigger changes size.
  useLayoutEffect(() => {
    if (!open) {
      setPlace(null);
      return;
    }
    update();
    window.addEventListener('scroll', update, true);
    window.addEventListener('resize', update);
    // Focus moving to a field under the tooltip moves or hides it.
    document.addEventListener('focusin', update);
    const observer = typeof ResizeObserver === 'undefined' ? null : new ResizeObserver(update);
    for (const el of [tipRef.current, anchorRef.current?.firstElementChild]) if (el) observer?.observe(el);
    return () => {
      window.removeEventListener('scroll', update, true);
      window.removeEventListener('resize', update);
      document.removeEventListener('focusin', update);
      observer?.disconnect();
    };
  }, [open, update]);

  // Escape dismisses it wherever focus is (WCAG 1.4.13 "dismissible"); a tap elsewhere closes a tapped one.
  useEffect(() => {
    if (!open) return;
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape') {
        setDismissed(true);
        setTapped(false);
      }
    };
    const onPointerDown = (e: PointerEvent) => {
      const target = e.target as Node | null;
      if (target && (anchorRef.current?.contains(target) || tipRef.current?.contains(target))) return;
      setTapped(false);
    };
    document.addEventListener('keydown', onKey);
    document.addEventListener('pointerdown', onPointerDown);
    return () => {
      document.removeEventListener('keydown', onKey);
      document.removeEventListener('pointerdown', onPointerDown);
    };
  }, [open]);

  const onPointerEnter = (e: ReactPointerEvent) => {
    // A touch "enter" is a tap: the click decides.
    if (e.pointerType === 'touch') return;
    cancelHide();
    setDismissed(false);
    setHovered(true);
  };
  const onPointerLeave = (e: ReactPointerEvent) => {
    if (e.pointerType === 'touch') return;
    scheduleHide();
  };

  return (
    // biome-ignore lint/a11y/noStaticElementInteractions: listens to the trigger inside (events bubble); no box of its own
    <span
      ref={anchorRef}
      className="tooltip-anchor"
      onPointerEnter={onPointerEnter}
      onPointerLeave={onPointerLeave}
      onPointerDown={(e) => {
        lastPointer.current = e.pointerType;
      }}
      onFocus={(e) => {
        if (e.target !== anchorRef.current?.firstElementChild) return;
        // A tap focuses too; only keyboard focus shows the tooltip (a tap toggles it in onClick).
        if (lastPointer.current === 'touch' || !focusVisible(e.target)) return;
        setDismissed(false);
        setFocused(true);
      }}
      onBlur={(e) => {
        if (e.target !== anchorRef.current?.firstElementChild) return;
        setFocused(false);
        setTapped(false);
        lastPointer.current = 'mouse';
      }}
      onKeyDown={() => {
        lastPointer.current = 'keyboard';
      }}
      onClick={() => {
        if (!tapToggle) return;
        if (lastPointer.current === 'touch') {
          setDismissed(false);
          setTapped((t) => !t);
        } else {
          // Enter or a click brings back a tooltip dismissed with Escape.
          setDismissed(false);
        }
      }}
    >
      {children(active ? id : undefined)}
      {active && (
        <span
          ref={tipRef}
          id={id}
          role="tooltip"
          hidden={!open}
          className={`tooltip tooltip--${size} tooltip--${theme}`}
          data-position={place?.position ?? position}
          style={
            place
              ? ({ top: place.top, left: place.left, '--tooltip-arrow': `${place.arrow}px` } as CSSProperties)
              : { top: 0, left: 0, visibility: 'hidden' }
          }
        >
          {content}
        </span>
      )}
    </span>
  );
}

/** A small round "i" button beside a label whose tooltip explains the field. */
export function InfoTip({
  label,
  content,
  position = 'top',
  size = 'large',
  theme = 'dark',
}: {
  /** The button's accessible name, e.g. "Help: Birth number". */
  label: string;
  content: ReactNode;
  position?: TooltipPosition;
  size?: TooltipSize;
  theme?: TooltipTheme;
}) {
  return (
    <Tooltip content={content} position={position} size={size} theme={theme}>
      {(describedBy) => (
        <button type="button" className="info-button" aria-label={label} aria-describedby={describedBy}>
          <span aria-hidden="true">i</span>
        </button>
      )}
    </Tooltip>
  );
}
