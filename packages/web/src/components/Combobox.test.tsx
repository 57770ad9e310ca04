import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { I18nextProvider } from 'react-i18next';
import { describe, expect, it, onTestFinished } from 'vitest';
import { useComboboxTexts } from '../form/comboboxTexts';
import { createTestI18n } from '../test/i18n';
import { Combobox, type ComboOption, filterByPrefix, searchKey } from './Combobox';

const OPTIONS: ComboOption[] = [
  { value: 'CZ', label: 'Česká republika' },
  { value: 'CL', label: 'Chile' },
  { value: 'DE', label: 'Německo' },
  { value: 'NL', label: 'Nizozemsko' },
];

/** The combobox as the form places it: with the form's words (form/comboboxTexts.ts). */
function FormCombobox(props: Omit<Parameters<typeof Combobox>[0], 'texts'>) {
  return <Combobox {...props} texts={useComboboxTexts()} />;
}

function Harness({ options = OPTIONS }: { options?: ComboOption[] }) {
  const [value, setValue] = useState('');
  return (
    <I18nextProvider i18n={createTestI18n('en')}>
      <label htmlFor="c">Country</label>
      <FormCombobox id="c" options={options} value={value} onChange={setValue} />
      <output data-testid="value">{value}</output>
    </I18nextProvider>
  );
}

describe('filterByPrefix', () => {
  it('matches the start, ignoring case and diacritics', () => {
    const keys = OPTIONS.map((o) => searchKey(o.label));
    expect(filterByPrefix(OPTIONS, keys, 'ces').map((o) => o.value)).toEqual(['CZ']);
    expect(filterByPrefix(OPTIONS, keys, 'NĚ').map((o) => o.value)).toEqual(['DE']);
    expect(filterByPrefix(OPTIONS, keys, 'n').map((o) => o.value)).toEqual(['DE', 'NL']);
    expect(filterByPrefix(OPTIONS, keys, 'republika')).toEqual([]);
    expect(filterByPrefix(OPTIONS, keys, '')).toHaveLength(4);
  });
});

describe('Combobox', () => {
  it('says so when Tab takes back a typed name that is not in the list (issue 35)', async () => {
    const user = userEvent.setup();
    render(<Harness />);
    const input = screen.getByRole('combobox', { name: 'Country' });
    await user.type(input, 'Brn');
    await user.tab();
    expect(input).toHaveValue('');
    expect(screen.getByTestId('c-status')).toHaveTextContent(/“Brn” is not in the list and was removed/);
    // A chosen value stays, and the status says which.
    await user.type(input, 'Chi{Enter}');
    await user.clear(input);
    await user.type(input, 'Xy');
    await user.tab();
    expect(input).toHaveValue('Chile');
    expect(screen.getByTestId('c-status')).toHaveTextContent('“Xy” is not in the list: Chile stays chosen.');
  });

  it('a closed box does no work per option until it is searched (issue 14: step 2 shows many)', async () => {
    let reads = 0;
    const many: ComboOption[] = Array.from({ length: 3000 }, (_, i) => ({
      value: String(i),
      get label() {
        reads++;
        return `Obec ${i}`;
      },
    }));
    const user = userEvent.setup();
    render(<Harness options={many} />);
    expect(reads).toBeLessThan(10);
    await user.type(screen.getByRole('combobox', { name: 'Country' }), 'obec 2999');
    expect(screen.getAllByRole('option').map((o) => o.textContent)).toEqual(['Obec 2999']);
  });

  it('follows the combobox pattern: arrows, aria-activedescendant, Enter, Escape', async () => {
    const user = userEvent.setup();
    render(<Harness />);
    const input = screen.getByRole('combobox', { name: 'Country' });
    expect(input).toHaveAttribute('aria-expanded', 'false');
    await user.type(input, 'n');
    expect(input).toHaveAttribute('aria-expanded', 'true');
    const options = screen.getAllByRole('option');
    expect(options.map((o) => o.textContent)).toEqual(['Německo', 'Nizozemsko']);
    expect(input).toHaveAttribute('aria-activedescendant', options[0]?.id);
    await user.keyboard('{ArrowDown}');
    expect(input).toHaveAttribute('aria-activedescendant', options[1]?.id);
    expect(options[1]).toHaveAttribute('aria-selected', 'true');
    await user.keyboard('{Enter}');
    expect(screen.getByTestId('value')).toHaveTextContent('NL');
    expect(input).toHaveValue('Nizozemsko');
    expect(input).toHaveAttribute('aria-expanded', 'false');
    // Escape closes without choosing and keeps the chosen value.
    await user.clear(input);
    await user.type(input, 'ch');
    await user.keyboard('{Escape}');
    expect(input).toHaveAttribute('aria-expanded', 'false');
    expect(screen.getByTestId('value')).toHaveTextContent('NL');
  });

  it('says when nothing matches and chooses by click', async () => {
    const user = userEvent.setup();
    render(<Harness />);
    const input = screen.getByRole('combobox');
    await user.type(input, 'xyz');
    expect(screen.getByText('No items found', { selector: 'p' })).toBeVisible();
    // Said politely too, and no active option is referred to when there is none (issue 27).
    expect(screen.getByText('No items found', { selector: '[role="status"]' })).toBeInTheDocument();
    expect(input).not.toHaveAttribute('aria-activedescendant');
    await user.clear(input);
    await user.type(input, 'chi');
    await user.click(screen.getByRole('option', { name: 'Chile' }));
    expect(screen.getByTestId('value')).toHaveTextContent('CL');
  });

  it('Enter in the box with no match does not submit the form around it', async () => {
    const user = userEvent.setup();
    let submitted = 0;
    render(
      <form
        onSubmit={(e) => {
          e.preventDefault();
          submitted++;
        }}
      >
        <Harness />
      </form>,
    );
    const input = screen.getByRole('combobox');
    await user.type(input, 'xyz');
    await user.keyboard('{Enter}');
    expect(submitted).toBe(0);
    expect(screen.getByText('No items found', { selector: 'p' })).toBeVisible();
    // Closed (Escape) with typed text still not chosen: Enter stays in the box too.
    await user.keyboard('{Escape}');
    await user.type(input, 'q');
    await user.keyboard('{Escape}{Enter}');
    expect(submitted).toBe(0);
  });

  it('virtualises a long list: only some of 6,258 options are in the page', async () => {
    // jsdom has no layout: give the panel the size a browser would.
    const proto = HTMLElement.prototype;
    const height = Object.getOwnPropertyDescriptor(proto, 'clientHeight');
    const width = Object.getOwnPropertyDescriptor(proto, 'clientWidth');
    Object.defineProperty(proto, 'clientHeight', { configurable: true, get: () => 240 });
    Object.defineProperty(proto, 'clientWidth', { configurable: true, get: () => 300 });
    onTestFinished(() => {
      if (height) Object.defineProperty(proto, 'clientHeight', height);
      if (width) Object.defineProperty(proto, 'clientWidth', width);
    });
    const user = userEvent.setup();
    const many = Array.from({ length: 6258 }, (_, i) => ({ value: String(i), label: `Obec ${i}` }));
    render(<Harness options={many} />);
    const input = screen.getByRole('combobox');
    await user.type(input, 'obec');
    const shown = screen.getAllByRole('option').length;
    expect(shown).toBeGreaterThan(0);
    expect(shown).toBeLessThan(40);
    await user.clear(input);
    await user.type(input, 'obec 6257');
    expect(screen.getAllByRole('option').map((o) => o.textContent)).toEqual(['Obec 6257']);
  });
});
