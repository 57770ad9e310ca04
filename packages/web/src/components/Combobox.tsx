import { useVirtualizer } from '@tanstack/react-virtual';
import { type KeyboardEvent, useEffect, useId, useMemo, useRef, useState } from 'react';

export interface ComboOption {
  value: string;
  label: string;
}

/** Lower case without diacritics: the key dropdown searches compare by. */
export function searchKey(s: string): string {
  return s.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase().trim();
}

/** Options whose label starts with the query (case- and diacritics-insensitive), in list order. */
export function filterByPrefix(
  options: readonly ComboOption[],
  keys: readonly string[],
  query: string,
): ComboOption[] {
  const q = searchKey(query);
  if (q === '') return [...options];
  const out: ComboOption[] = [];
  for (let i = 0; i < options.length; i++) {
    if ((keys[i] as string).startsWith(q)) out.push(options[i] as ComboOption);
  }
  return out;
}

/** Above this many matches the list is virtualised (only the visible rows are in the DOM). */
const VIRTUAL_FROM = 50;
const ROW_HEIGHT = 40;
/** Panel max height (spec section 9). */
const PANEL_MAX = 240;
/** Rows rendered beyond the visible ones (spec section 9: buffer 4). */
const OVERSCAN = 4;

/** The words a combobox says, given by whoever places it (the form's: form/comboboxTexts.ts). */
export interface ComboboxTexts {
  /** The box's placeholder. */
  typeToSearch: string;
  /** The list's accessible name. */
  options: string;
  loading: string;
  noItems: string;
  results: (count: number) => string;
  /** A typed name not in the list taken back to the chosen one, or to none. */
  reverted: (typed: string, label: string) => string;
  revertedEmpty: (typed: string) => string;
}

export interface ComboboxProps {
  id: string;
  texts: ComboboxTexts;
  options: readonly ComboOption[];
  value: string;
  onChange: (value: string) => void;
  /** Clear the text after a choice (adding to a multi-select). */
  clearOnSelect?: boolean;
  disabled?: boolean;
  required?: boolean;
  invalid?: boolean;
  describedBy?: string;
  autoComplete?: string;
  onBlur?: () => void;
  /** The options are still being fetched: the list says "Loading..." (spec section 9), not "No items found". */
  loading?: boolean;
}

/**
 * A text box with a list of suggestions, following the WAI-ARIA combobox pattern (list
 * autocomplete): typing filters the list by prefix, arrows move the active option
 * (aria-activedescendant, only ever to an option that is in the page), Enter chooses, Escape
 * closes and restores the chosen value. A polite status says how many match, that none do, or
 * that the list is loading; every option carries its position in the whole list
 * (aria-posinset/aria-setsize), also when the long list is virtualised (only the visible rows
 * are in the page). Options wrap rather than being cut (320 px, WCAG 1.4.10).
 */
export function Combobox({
  id,
  texts,
  options,
  value,
  onChange,
  clearOnSelect,
  disabled,
  required,
  invalid,
  describedBy,
  autoComplete = 'off',
  onBlur,
  loading = false,
}: ComboboxProps) {
  const listId = `${id}-listbox`;
  const uid = useId().replace(/:/g, '');
  // Search keys are made at the first search, not when the box mounts: step 2 shows several
  // of these boxes (countries, 6,258 municipalities), most never typed into (issue 14).
  const keysOf = useMemo(() => {
    let keys: string[] | null = null;
    return () => {
      keys ??= options.map((o) => searchKey(o.label));
      return keys;
    };
  }, [options]);
  const selectedLabel = useMemo(() => options.find((o) => o.value === value)?.label ?? '', [options, value]);
  const [text, setText] = useState(clearOnSelect ? '' : selectedLabel);
  // What the polite status says after a typed name that is not in the list was taken back.
  const [reverted, setReverted] = useState('');
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(-1);
  const [query, setQuery] = useState('');
  const scrollRef = useRef<HTMLDivElement>(null);

  // The shown text follows the value when it changes from outside (prefill, reset, draft).
  useEffect(() => {
    if (!clearOnSelect) setText(selectedLabel);
  }, [selectedLabel, clearOnSelect]);

  const matches = useMemo(
    () => (query === '' ? options : filterByPrefix(options, keysOf(), query)),
    [options, keysOf, query],
  );
  const virtual = matches.length > VIRTUAL_FROM;
  // Only while the list is open: a closed box neither measures rows nor observes its panel (the
  // first observation reads the panel's size, a forced layout of the whole form per box).
  const virtualizer = useVirtualizer({
    enabled: open && virtual,
    count: open && virtual ? matches.length : 0,
    getScrollElement: () => scrollRef.current,
    // A wrapped option is taller: rows are measured as they render (never below the CSS minimum).
    estimateSize: () => ROW_HEIGHT,
    measureElement: (el) => Math.max(ROW_HEIGHT, el.getBoundingClientRect().height),
    overscan: OVERSCAN,
    initialRect: { width: 300, height: PANEL_MAX },
  });

  const optionId = (i: number) => `${uid}-${id}-opt-${i}`;

  const choose = (o: ComboOption) => {
    onChange(o.value);
    setText(clearOnSelect ? '' : o.label);
    setQuery('');
    setOpen(false);
    setActive(-1);
  };

  const move = (to: number) => {
    if (matches.length === 0) return;
    const next = Math.max(0, Math.min(matches.length - 1, to));
    setActive(next);
    if (virtual) virtualizer.scrollToIndex(next, { align: 'auto' });
    else document.getElementById(optionId(next))?.scrollIntoView?.({ block: 'nearest' });
  };

  const onKeyDown = (e: KeyboardEvent<HTMLInputElement>) => {
    switch (e.key) {
      case 'ArrowDown':
        e.preventDefault();
        if (!open) {
          setOpen(true);
          setActive(
            Math.max(
              0,
              matches.findIndex((o) => o.value === value),
            ),
          );
        } else move(active + 1);
        break;
      case 'ArrowUp':
        e.preventDefault();
        if (open) move(active - 1);
        break;
      case 'Home':
        if (open) {
          e.preventDefault();
          move(0);
        }
        break;
      case 'End':
        if (open) {
          e.preventDefault();
          move(matches.length - 1);
        }
        break;
      case 'Enter': {
        const o = open && active >= 0 ? matches[active] : undefined;
        // An open list or typed text not yet chosen: Enter belongs to the box, never submits
        // the form (with no match it does nothing; the list says "No items found").
        if (o || open || text !== (clearOnSelect ? '' : selectedLabel)) e.preventDefault();
        if (o) choose(o);
        break;
      }
      case 'Escape':
        if (open) {
          e.preventDefault();
          setOpen(false);
          setActive(-1);
        } else {
          setText(clearOnSelect ? '' : selectedLabel);
        }
        setQuery('');
        break;
      default:
    }
  };

  const commitOnBlur = () => {
    setOpen(false);
    setActive(-1);
    const q = searchKey(text);
    if (q === '') {
      if (!clearOnSelect && value !== '') onChange('');
    } else {
      // A typed name that is exactly an option chooses it; anything else goes back.
      const keys = keysOf();
      const exact = options.find((_, i) => keys[i] === q);
      if (exact) choose(exact);
      else {
        setText(clearOnSelect ? '' : selectedLabel);
        // Said, not only seen: the words typed are gone (issue 35; WCAG 3.3.1).
        setReverted(
          !clearOnSelect && selectedLabel
            ? texts.reverted(text.trim(), selectedLabel)
            : texts.revertedEmpty(text.trim()),
        );
      }
    }
    setQuery('');
    onBlur?.();
  };

  // Options are reached with the arrow keys through aria-activedescendant (the focus stays
  // in the text box), as the WAI-ARIA combobox pattern says; a click chooses too.
  const renderOption = (o: ComboOption, i: number, style?: React.CSSProperties) => (
    // biome-ignore lint/a11y/useFocusableInteractive: see above
    // biome-ignore lint/a11y/useKeyWithClickEvents: see above
    <div
      key={o.value}
      id={optionId(i)}
      ref={style ? virtualizer.measureElement : undefined}
      data-index={i}
      role="option"
      aria-selected={i === active}
      aria-setsize={matches.length}
      aria-posinset={i + 1}
      className={`combobox__option${i === active ? ' combobox__option--active' : ''}${
        o.value === value ? ' combobox__option--chosen' : ''
      }`}
      style={style}
      onMouseDown={(e) => e.preventDefault()}
      onClick={() => choose(o)}
    >
      {o.label}
    </div>
  );

  const empty = matches.length === 0;
  // Only an option that is in the page may be the active descendant (none with no match, and in
  // the virtual list only a rendered row).
  const activeShown =
    open &&
    active >= 0 &&
    active < matches.length &&
    (!virtual || virtualizer.getVirtualItems().some((row) => row.index === active));
  // What the polite status says while the list is open (WCAG 4.1.3).
  const status = !open
    ? reverted
    : loading && empty
      ? texts.loading
      : empty
        ? texts.noItems
        : texts.results(matches.length);

  return (
    <div className="combobox">
      <span className="visually-hidden" role="status" data-testid={`${id}-status`}>
        {status}
      </span>
      <input
        id={id}
        type="text"
        role="combobox"
        className="input combobox__input"
        aria-autocomplete="list"
        aria-expanded={open}
        aria-controls={listId}
        aria-activedescendant={activeShown ? optionId(active) : undefined}
        aria-describedby={describedBy}
        aria-invalid={invalid || undefined}
        aria-required={required || undefined}
        autoComplete={autoComplete}
        disabled={disabled}
        placeholder={texts.typeToSearch}
        value={text}
        onChange={(e) => {
          setText(e.target.value);
          setReverted('');
          setQuery(e.target.value);
          setOpen(true);
          setActive(0);
        }}
        onKeyDown={onKeyDown}
        onBlur={commitOnBlur}
      />
      <div
        ref={scrollRef}
        className="combobox__panel"
        hidden={!open}
        style={{ maxHeight: PANEL_MAX }}
        data-testid={`${id}-panel`}
      >
        {open && empty && <p className="combobox__empty">{loading ? texts.loading : texts.noItems}</p>}
        <div id={listId} role="listbox" aria-label={texts.options} aria-busy={loading || undefined}>
          {open && !virtual && matches.map((o, i) => renderOption(o, i))}
          {open && virtual && (
            <div style={{ height: virtualizer.getTotalSize(), position: 'relative' }}>
              {virtualizer.getVirtualItems().map((row) =>
                renderOption(matches[row.index] as ComboOption, row.index, {
                  position: 'absolute',
                  top: 0,
                  left: 0,
                  right: 0,
                  transform: `translateY(${row.start}px)`,
                }),
              )}
            </div>
          )}
        </div>
      </div>
    </div>
  );
}
