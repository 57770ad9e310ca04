import { renderHook, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { nextTask } from '../shell/tasks';
import { stubFetch } from '../test/render';
import { TEST_LIST_ANSWERS } from '../test/requestForm';
import { clearReferenceCache, useReferenceLists } from './reference';

describe('step 2’s pick lists', () => {
  it('come with one call per list, each started in a task of its own', async () => {
    const fetchMock = stubFetch(TEST_LIST_ANSWERS);
    const { result } = renderHook(() => useReferenceLists('en'));
    // None in the task that asked for them.
    expect(fetchMock).not.toHaveBeenCalled();
    await waitFor(() => expect(result.current.lists).not.toBeNull());
    expect(fetchMock).toHaveBeenCalledTimes(8);
  });

  it('a load whose cache is cleared (a test’s end) makes no more calls', async () => {
    const fetchMock = stubFetch(TEST_LIST_ANSWERS);
    renderHook(() => useReferenceLists('cs'));
    clearReferenceCache();
    for (let i = 0; i < 10; i++) await nextTask();
    expect(fetchMock).not.toHaveBeenCalled();
  });
});
