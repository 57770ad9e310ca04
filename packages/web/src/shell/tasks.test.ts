import { describe, expect, it } from 'vitest';
import { eachInItsTask, nextTask } from './tasks';

describe('eachInItsTask', () => {
  it('starts one item per task, in order, without waiting for the one before to finish', async () => {
    const started: string[] = [];
    const pending: Array<(v: string) => void> = [];
    const all = eachInItsTask(['a', 'b', 'c'], (item) => {
      started.push(item);
      return new Promise<string>((resolve) => pending.push(() => resolve(item.toUpperCase())));
    });
    // Nothing in the caller's task, not even after its microtasks.
    await Promise.resolve();
    expect(started).toEqual([]);
    await nextTask();
    expect(started).toEqual(['a']);
    await nextTask();
    // 'a' has not finished, and 'b' has started.
    expect(started).toEqual(['a', 'b']);
    await nextTask();
    expect(started).toEqual(['a', 'b', 'c']);
    for (const resolve of pending) resolve('');
    expect(await all).toEqual(['A', 'B', 'C']);
  });
});
