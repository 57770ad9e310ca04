// @vitest-environment jsdom
import { describe, expect, it } from 'vitest';
import { referenceWorkload } from './reference.mjs';

describe('the reference workload (issue 37)', () => {
  it('does the same work every time and leaves the document as it found it', () => {
    const before = document.documentElement.outerHTML;
    const first = referenceWorkload();
    const second = referenceWorkload();
    // The same computation each run: its checksum (rows checked, texts written) does not move.
    expect(second.check).toBe(first.check);
    // 400 rows × 60 passes × 2 checks, every one valid, at the least.
    expect(first.check).toBeGreaterThanOrEqual(400 * 60 * 2);
    expect(first.ms).toBeGreaterThan(0);
    // Its stylesheet and sections are gone again: repeated runs in one page do not pile up.
    expect(document.documentElement.outerHTML).toBe(before);
  });

  it('runs from its own source, as the bench sends it into a page (no closure over the module)', () => {
    const run = new Function(`return (${referenceWorkload.toString()})()`);
    expect(run().check).toBe(referenceWorkload().check);
  });
});
