import '@testing-library/jest-dom/vitest';
import { cleanup, configure } from '@testing-library/react';
import { afterEach, vi } from 'vitest';
import { clearReferenceCache } from '../form/reference';
import { polyfillDialog } from './dialog';

// How long a wait for the page may see nothing new. Step 2 arrives a section per task
// (form/request/useReveal.ts): its finish bar is waited for with findFinish (test/requestForm.tsx),
// which goes on as long as sections keep arriving, each within this time.
configure({ asyncUtilTimeout: 5000 });

// The app's dialogs are native <dialog>s shown with showModal(), which jsdom lacks (test/dialog.ts).
polyfillDialog();

afterEach(() => {
  cleanup();
  // Step 2's pick lists are fetched one per task: a test that ends while they load makes no more
  // calls (after the fetch stub is gone, a call would fail and log past the file's end).
  clearReferenceCache();
  window.localStorage.clear();
  vi.unstubAllGlobals();
});
