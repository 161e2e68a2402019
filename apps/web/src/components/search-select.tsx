import { useEffect, useId, useRef, useState, type KeyboardEvent } from 'react';
import { Form, Spinner } from 'react-bootstrap';
import { labelOf, type SearchOption } from './search-select-logic';

export type { SearchOption } from './search-select-logic';

export interface SearchSelectProps {
  controlId: string;
  label: string;
  /** The picked value; '' is the empty choice. */
  value: string;
  onChange: (value: string) => void;
  /** What is typed in the box; the owner searches with it and passes the matches as `options`. */
  term: string;
  onTermChange: (term: string) => void;
  /** The matches for `term`, in order (fixed choices such as 'Self' included by the owner). */
  options: readonly SearchOption[];
  /** Label of the empty choice, listed first; omitted means there is no empty choice. */
  emptyLabel?: string;
  /** The picked value's label when the owner knows it (a value picked elsewhere). */
  valueLabel?: string;
  /** Shown in the empty box (default 'Type to search'). */
  placeholder?: string;
  /** The matches for the latest `term` are still loading. */
  searching?: boolean;
  error?: string | undefined;
  hint?: string | undefined;
  className?: string;
  disabled?: boolean;
}

/**
 * A search-as-you-type select (WAI-ARIA combobox with a listbox): closed it shows the picked
 * choice; typing asks the owner for matches; arrows, Enter and Escape work as in a select.
 * A picked value that is not among the current matches keeps its label.
 */
export function SearchSelect(props: SearchSelectProps) {
  const { controlId, label, value, term, options, emptyLabel, searching } = props;
  const listId = useId();
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(0);
  // Labels of choices seen in any result, so a picked value keeps its label after the next search.
  const seen = useRef(new Map<string, string>());
  for (const o of options) seen.current.set(o.value, o.label);
  if (props.valueLabel && value) seen.current.set(value, props.valueLabel);

  const choices: SearchOption[] =
    emptyLabel === undefined ? [...options] : [{ value: '', label: emptyLabel }, ...options];
  const shown = labelOf(value, emptyLabel, seen.current);
  const activeIndex = Math.min(active, Math.max(choices.length - 1, 0));

  function openList() {
    if (open || props.disabled) return;
    setOpen(true);
    setActive(
      Math.max(
        choices.findIndex((c) => c.value === value),
        0,
      ),
    );
    props.onTermChange('');
  }
  function pick(choice: SearchOption | undefined) {
    if (!choice) return;
    setOpen(false);
    props.onTermChange('');
    if (choice.value !== value) props.onChange(choice.value);
  }
  function onKeyDown(e: KeyboardEvent<HTMLInputElement>) {
    if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
      e.preventDefault();
      if (!open) return openList();
      const step = e.key === 'ArrowDown' ? 1 : -1;
      setActive((activeIndex + step + choices.length) % Math.max(choices.length, 1));
    } else if (e.key === 'Enter') {
      if (!open) return;
      e.preventDefault();
      pick(choices[activeIndex]);
    } else if (e.key === 'Escape' && open) {
      e.preventDefault();
      setOpen(false);
      props.onTermChange('');
    }
  }

  const optionId = (i: number) => `${listId}-${i}`;
  // The arrows move the highlight past the list's visible part: keep it in view.
  useEffect(() => {
    if (open)
      document.getElementById(`${listId}-${activeIndex}`)?.scrollIntoView({ block: 'nearest' });
  }, [open, activeIndex, listId]);
  return (
    <Form.Group className={`position-relative ${props.className ?? 'mb-3'}`} controlId={controlId}>
      <Form.Label>{label}</Form.Label>
      <Form.Control
        type="text"
        role="combobox"
        // A select's chevron: the box picks from a list, it is not free text.
        className="form-select"
        autoComplete="off"
        aria-autocomplete="list"
        aria-expanded={open}
        aria-controls={listId}
        aria-activedescendant={open && choices.length > 0 ? optionId(activeIndex) : undefined}
        placeholder={(open && shown) || (props.placeholder ?? 'Type to search')}
        value={open ? term : shown}
        disabled={props.disabled}
        isInvalid={!!props.error}
        onFocus={openList}
        onClick={openList}
        onBlur={() => {
          setOpen(false);
          props.onTermChange('');
        }}
        onKeyDown={onKeyDown}
        onChange={(e) => {
          if (!open) setOpen(true);
          setActive(0);
          props.onTermChange(e.target.value);
        }}
      />
      {open && (
        <ul
          id={listId}
          role="listbox"
          className="dropdown-menu show w-100 overflow-auto"
          style={{ maxHeight: 280 }}
          // Keeps the focus in the box, so a click picks before the blur closes the list.
          onMouseDown={(e) => e.preventDefault()}
        >
          {choices.map((c, i) => (
            <li
              key={c.value === '' ? '\u0000empty' : c.value}
              id={optionId(i)}
              role="option"
              aria-selected={c.value === value}
              className={`dropdown-item text-truncate${i === activeIndex ? ' active' : ''}`}
              style={{ cursor: 'pointer' }}
              onMouseEnter={() => setActive(i)}
              onClick={() => pick(c)}
            >
              {c.label}
            </li>
          ))}
          {searching ? (
            <li className="dropdown-item-text text-muted small" role="status">
              <Spinner animation="border" size="sm" className="me-2" aria-hidden="true" />
              Searching...
            </li>
          ) : (
            options.length === 0 && (
              <li className="dropdown-item-text text-muted small">No matches.</li>
            )
          )}
        </ul>
      )}
      {props.hint && <Form.Text muted>{props.hint}</Form.Text>}
      <Form.Control.Feedback type="invalid">{props.error}</Form.Control.Feedback>
    </Form.Group>
  );
}
