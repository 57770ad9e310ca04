import { render } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { niaSignedIn, signOutAtNia, useNiaSignOut } from './niaSignOut';

const leave = vi.hoisted(() => vi.fn());
vi.mock('../leaveGuard', () => ({ leaveKeepingDraft: leave }));

function Holder({ active, lang = 'cs' }: { active: boolean; lang?: 'cs' | 'en' }) {
  useNiaSignOut(active, lang);
  return null;
}

afterEach(() => {
  leave.mockClear();
  window.history.replaceState(null, '', '/');
});

describe('signing out at NIA when the signed-in form is left (issue 23)', () => {
  it('going home from the form signs out through sso-logout, in the form language', () => {
    window.history.replaceState(null, '', '/form?eid=nia&lang=en');
    const view = render(<Holder active lang="en" />);
    expect(niaSignedIn()).toBe(true);
    window.history.pushState(null, '', '/?lang=en');
    view.unmount();
    expect(leave).toHaveBeenCalledWith('/api/ros/sso-logout?lang=en');
    expect(niaSignedIn()).toBe(false);
  });

  it('the duplicate home counts as home; another page does not', () => {
    window.history.replaceState(null, '', '/duplikat/form?eid=nia');
    const a = render(<Holder active />);
    window.history.pushState(null, '', '/duplikat');
    a.unmount();
    expect(leave).toHaveBeenCalledWith('/api/ros/sso-logout');
    leave.mockClear();
    window.history.replaceState(null, '', '/form?eid=nia');
    const b = render(<Holder active />);
    window.history.pushState(null, '', '/not-found');
    b.unmount();
    expect(leave).not.toHaveBeenCalled();
  });

  it('a used-up or given-up session (inactive) and a language switch on the form sign nobody out', () => {
    window.history.replaceState(null, '', '/form?eid=nia');
    const view = render(<Holder active />);
    view.rerender(<Holder active lang="en" />);
    expect(leave).not.toHaveBeenCalled();
    expect(niaSignedIn()).toBe(true);
    view.rerender(<Holder active={false} lang="en" />);
    expect(niaSignedIn()).toBe(false);
    window.history.pushState(null, '', '/');
    view.unmount();
    expect(leave).not.toHaveBeenCalled();
  });

  it('the leave question signs out in the language of the form that holds the session', () => {
    window.history.replaceState(null, '', '/form?eid=nia&lang=en');
    render(<Holder active lang="en" />);
    signOutAtNia();
    expect(leave).toHaveBeenCalledWith('/api/ros/sso-logout?lang=en');
    expect(niaSignedIn()).toBe(false);
  });
});
