import { defaultFormContext, defaultFormValues } from '@ros/domain';
import { describe, expect, it } from 'vitest';
import { FormStatusStore } from './status';

/**
 * The rules' first run waits until after the form's first render (issue 37): a new store knows
 * only what is required; check(), a finish (setAttempted) or the first change runs the rules.
 */
describe('FormStatusStore', () => {
  const ctx = defaultFormContext({ noPrefill: true });

  it('knows what is required at once, and runs the rules only when asked', () => {
    const store = new FormStatusStore(ctx, defaultFormValues());
    expect(store.state.required.has('first_name')).toBe(true);
    expect(store.state.errors).toEqual({});
    let published = 0;
    store.subscribe(() => published++);
    store.check();
    expect(published).toBe(1);
    expect(store.state.errors.first_name).toEqual({ key: 'required' });
    expect(store.state.formOk).toBe(false);
    // Once run, check() has nothing to do: the rules run again on each change (update).
    store.check();
    expect(published).toBe(1);
  });

  it('a finish before the first run finds every error', () => {
    const store = new FormStatusStore(ctx, defaultFormValues());
    store.setAttempted();
    expect(store.state.attempted).toBe(true);
    expect(store.state.errors.last_name).toEqual({ key: 'required' });
  });

  it('a change before the first run runs the rules on the new values', () => {
    const store = new FormStatusStore(ctx, defaultFormValues());
    store.update({ ...defaultFormValues(), first_name: 'Jan' });
    expect(store.state.errors.first_name).toBeUndefined();
    expect(store.state.errors.last_name).toEqual({ key: 'required' });
  });
});
