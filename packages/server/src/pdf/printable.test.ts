import { isPrintable, PRINTABLE_RANGES } from '@ros/domain';
import { describe, expect, it } from 'vitest';
import { loadFonts } from './fonts.js';

/**
 * The text policy's table of printable characters (packages/domain/src/printable.ts, written by
 * scripts/printable.mjs) is the cmap of the font the PDF embeds: regenerate it after a font update.
 */
describe('printable characters (issue 33 item 9)', () => {
  it('the domain table is exactly the PDF font’s character set', () => {
    const font = [...loadFonts().regular.characterSet].sort((a, b) => a - b);
    const table: number[] = [];
    for (const r of PRINTABLE_RANGES.split(' ')) {
      const [a = '', b = a] = r.split('-');
      for (let cp = Number.parseInt(a, 16); cp <= Number.parseInt(b, 16); cp++) table.push(cp);
    }
    expect(table).toEqual(font);
    for (const cp of [0x41, 0x159, 0x4e2d, 0x200b]) expect(isPrintable(cp)).toBe(font.includes(cp));
  });
});
