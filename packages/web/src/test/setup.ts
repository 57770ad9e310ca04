import '@testing-library/jest-dom/vitest';
import { cleanup, configure } from '@testing-library/react';
import { afterEach, vi } from 'vitest';
import { polyfillDialog } from './dialog';

// Step 2 arrives a section per task (form/request/useReveal.ts): in jsdom on a busy machine its
// finish bar can take over the default second to show.
configure({ asyncUtilTimeout: 5000 });

// The app's dialogs are native <dialog>s shown with showModal(), which jsdom lacks (test/dialog.ts).
polyfillDialog();

afterEach(() => {
  cleanup();
  window.localStorage.clear();
  vi.unstubAllGlobals();
});
