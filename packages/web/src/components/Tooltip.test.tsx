import { act, fireEvent, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import {
  InfoTip,
  placeTooltip,
  TOOLTIP_HIDE_DELAY_MS,
  TOOLTIP_OFFSET_PX,
  Tooltip,
  type TooltipProps,
} from './Tooltip';

const rect = (left: number, top: number, width: number, height: number) => ({
  left,
  top,
  width,
  height,
  right: left + width,
  bottom: top + height,
});
const VIEWPORT = { width: 1280, height: 800 };
const TIP = { width: 200, height: 60 };

describe('placeTooltip', () => {
  it('puts the tooltip its offset from the trigger on each side, centred on it', () => {
    const gap = TOOLTIP_OFFSET_PX;
    const trigger = rect(500, 400, 100, 40);
    const top = placeTooltip(trigger, TIP, VIEWPORT, 'top');
    expect(top).toMatchObject({ position: 'top', top: 400 - gap - 60, left: 550 - 100 });
    const bottom = placeTooltip(trigger, TIP, VIEWPORT, 'bottom');
    expect(bottom).toMatchObject({ position: 'bottom', top: 440 + gap, left: 450 });
    const left = placeTooltip(trigger, TIP, VIEWPORT, 'left');
    expect(left).toMatchObject({ position: 'left', left: 500 - gap - 200, top: 420 - 30 });
    const right = placeTooltip(trigger, TIP, VIEWPORT, 'right');
    expect(right).toMatchObject({ position: 'right', left: 600 + gap, top: 390 });
    // The arrow points at the trigger's centre.
    expect(top.arrow).toBe(100);
    expect(right.arrow).toBe(30);
  });

  it('flips to the opposite side when the viewport has no room', () => {
    expect(placeTooltip(rect(500, 20, 100, 40), TIP, VIEWPORT, 'top').position).toBe('bottom');
    expect(placeTooltip(rect(500, 740, 100, 40), TIP, VIEWPORT, 'bottom').position).toBe('top');
    expect(placeTooltip(rect(20, 400, 100, 40), TIP, VIEWPORT, 'left').position).toBe('right');
    expect(placeTooltip(rect(1100, 400, 100, 40), TIP, VIEWPORT, 'right').position).toBe('left');
  });

  it('on a 320 px screen a side tooltip goes below (or above), kept inside the viewport', () => {
    const narrow = { width: 320, height: 640 };
    const p = placeTooltip(rect(16, 300, 200, 40), TIP, narrow, 'right');
    expect(p.position).toBe('bottom');
    expect(p.top).toBe(300 + 40 + TOOLTIP_OFFSET_PX);
    expect(p.left).toBeGreaterThanOrEqual(8);
    expect(p.left + TIP.width).toBeLessThanOrEqual(320 - 8);
    const up = placeTooltip(rect(16, 560, 200, 40), TIP, narrow, 'left');
    expect(up.position).toBe('top');
    // Near the right edge: shifted left, the arrow still at the trigger.
    const edge = placeTooltip(rect(280, 300, 24, 24), TIP, narrow, 'top');
    expect(edge.left).toBe(320 - 8 - 200);
    expect(edge.arrow).toBe(292 - edge.left);
  });

  it('with no room anywhere it takes the side with the most room', () => {
    const tiny = { width: 200, height: 100 };
    expect(placeTooltip(rect(10, 70, 50, 20), TIP, tiny, 'bottom').position).toBe('top');
  });
});

function renderTip(props: Partial<TooltipProps> = {}) {
  const user = userEvent.setup();
  render(
    <>
      <button type="button">before</button>
      <Tooltip content="Explains the thing" {...props}>
        {(describedBy) => (
          <button type="button" aria-describedby={describedBy}>
            trigger
          </button>
        )}
      </Tooltip>
    </>,
  );
  const trigger = screen.getByRole('button', { name: 'trigger' });
  return { user, trigger };
}

const tooltip = () => screen.queryByRole('tooltip');

describe('Tooltip', () => {
  it('is linked by aria-describedby and stays in the page hidden, so screen readers read it', () => {
    const { trigger } = renderTip({ size: 'large', theme: 'light', position: 'left' });
    const id = trigger.getAttribute('aria-describedby') ?? '';
    const tip = document.getElementById(id);
    expect(tip).toHaveAttribute('role', 'tooltip');
    expect(tip).toHaveAttribute('hidden');
    expect(tip).toHaveClass('tooltip--large', 'tooltip--light');
    expect(tip).toHaveAttribute('data-position', 'left');
    expect(trigger).toHaveAccessibleDescription('Explains the thing');
    expect(tooltip()).toBeNull();
  });

  it('shows on pointer enter and hides on pointer leave after a short grace time', async () => {
    const { user, trigger } = renderTip();
    await user.hover(trigger);
    expect(tooltip()).toHaveTextContent('Explains the thing');
    expect(tooltip()).toHaveClass('tooltip--small', 'tooltip--dark');
    await user.unhover(trigger);
    // Still there: the pointer may be on its way onto the tooltip.
    expect(tooltip()).not.toBeNull();
    await waitFor(() => expect(tooltip()).toBeNull());
  });

  it('stays open while the pointer moves from the trigger onto the tooltip (hoverable)', async () => {
    const { user, trigger } = renderTip();
    await user.hover(trigger);
    const tip = tooltip() as HTMLElement;
    await user.unhover(trigger);
    await user.hover(tip);
    await act(() => new Promise((r) => setTimeout(r, TOOLTIP_HIDE_DELAY_MS * 2)));
    expect(tooltip()).not.toBeNull();
    await user.unhover(tip);
    await waitFor(() => expect(tooltip()).toBeNull());
  });

  it('shows on keyboard focus, hides on blur', async () => {
    const { user, trigger } = renderTip();
    await user.tab();
    await user.tab();
    expect(trigger).toHaveFocus();
    expect(tooltip()).toHaveTextContent('Explains the thing');
    await user.tab({ shift: true });
    expect(tooltip()).toBeNull();
  });

  it('Escape hides it while hovered and focused; it comes back on the next enter', async () => {
    const { user, trigger } = renderTip();
    await user.tab();
    await user.tab();
    await user.hover(trigger);
    expect(tooltip()).not.toBeNull();
    await user.keyboard('{Escape}');
    expect(tooltip()).toBeNull();
    expect(trigger).toHaveFocus();
    await user.unhover(trigger);
    await user.hover(trigger);
    expect(tooltip()).not.toBeNull();
  });

  it('a tap on a touch screen toggles it; a tap elsewhere closes it', async () => {
    const { user, trigger } = renderTip();
    await user.pointer({ keys: '[TouchA]', target: trigger });
    expect(tooltip()).not.toBeNull();
    await user.pointer({ keys: '[TouchA]', target: trigger });
    expect(tooltip()).toBeNull();
    await user.pointer({ keys: '[TouchA]', target: trigger });
    expect(tooltip()).not.toBeNull();
    await user.pointer({ keys: '[TouchA]', target: document.body });
    expect(tooltip()).toBeNull();
  });

  it('with tapToggle off a tap does not open it (the tap acts instead)', async () => {
    const { user, trigger } = renderTip({ tapToggle: false });
    await user.pointer({ keys: '[TouchA]', target: trigger });
    expect(tooltip()).toBeNull();
  });

  it('no content: no tooltip and no description', async () => {
    const { user, trigger } = renderTip({ content: null });
    expect(trigger).not.toHaveAttribute('aria-describedby');
    await user.hover(trigger);
    expect(tooltip()).toBeNull();
  });

  it('is placed with position fixed from the measured boxes (no layout shift)', async () => {
    const { user, trigger } = renderTip({ position: 'bottom' });
    trigger.getBoundingClientRect = () => DOMRect.fromRect({ x: 100, y: 100, width: 80, height: 30 });
    await user.hover(trigger);
    const tip = tooltip() as HTMLElement;
    // jsdom measures no text: a 0×0 tooltip just below the trigger.
    fireEvent.scroll(window);
    await waitFor(() => expect(tip.style.top).toBe(`${100 + 30 + TOOLTIP_OFFSET_PX}px`));
    expect(tip.style.left).toBe('140px');
    expect(tip).toHaveAttribute('data-position', 'bottom');
  });
});

describe('InfoTip', () => {
  it('is a named button described by its tooltip', async () => {
    const user = userEvent.setup();
    render(<InfoTip label="Help: Birth number" content="Ten digits." />);
    const button = screen.getByRole('button', { name: 'Help: Birth number' });
    expect(button).toHaveAccessibleDescription('Ten digits.');
    await user.hover(button);
    expect(screen.getByRole('tooltip')).toHaveTextContent('Ten digits.');
  });
});
