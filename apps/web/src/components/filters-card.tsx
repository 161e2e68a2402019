import type { ReactNode } from 'react';
import { Button, Card, Col, Row } from 'react-bootstrap';
import { SelectField, TextField, type SelectFieldProps } from './form-field';
import { SearchSelect, type SearchOption, type SearchSelectProps } from './search-select';

/** One end of the date range: a date input (yyyy-mm-dd, empty for no bound). */
export interface DateBound {
  controlId: string;
  label: string;
  value: string;
  onChange: (value: string) => void;
}

/** One filter's cell in the row: half the width on small screens, an equal share on large. */
export function FilterCol({ children }: { children: ReactNode }) {
  return (
    <Col sm={6} lg>
      {children}
    </Col>
  );
}

/** A search-as-you-type filter's state: what is typed and the matches for it. */
export interface FilterSearch {
  term: string;
  onTermChange: (term: string) => void;
  options: readonly SearchOption[];
  /** The matches for the latest term are still loading. */
  searching: boolean;
}

type SearchFilterProps = Omit<SearchSelectProps, 'className' | keyof FilterSearch> & {
  search: FilterSearch;
};

/** A filter searched as you type (a user by name or email), in its cell. */
export function SearchFilter({ search, ...field }: SearchFilterProps) {
  return (
    <FilterCol>
      <SearchSelect className="mb-0" {...field} {...search} />
    </FilterCol>
  );
}

/** A filter chosen from a list, in its cell; its empty choice ("All ...") keeps every row. */
export function SelectFilter(props: Omit<SelectFieldProps, 'className'>) {
  return (
    <FilterCol>
      <SelectField className="mb-0" {...props} />
    </FilterCol>
  );
}

interface FiltersCardProps {
  /** The date range, the first two filters. */
  from: DateBound;
  to: DateBound;
  /** The other filters: SearchFilter, SelectFilter, or others each in a FilterCol. */
  children: ReactNode;
  onClear: () => void;
  /**
   * More buttons after Clear Filters (an export): with them, the buttons go on a line of their
   * own below the filters; without them, Clear Filters ends the row of filters.
   */
  actions?: ReactNode;
  /** Under the buttons (an export's error). */
  footer?: ReactNode;
}

/** The Filters card of a list: a date range, the list's own filters and Clear Filters. */
export function FiltersCard(props: FiltersCardProps) {
  const { from, to, children, onClear, actions, footer } = props;
  const clear = (
    <Button variant="secondary" onClick={onClear}>
      Clear Filters
    </Button>
  );
  return (
    <Card className="shadow-sm mb-3">
      <Card.Header as="h2" className="h5 mb-0">
        Filters
      </Card.Header>
      <Card.Body>
        <Row className={actions ? 'g-3' : 'g-3 align-items-end'}>
          {[from, to].map((bound) => (
            <FilterCol key={bound.controlId}>
              <TextField type="date" className="mb-0" {...bound} />
            </FilterCol>
          ))}
          {children}
          {!actions && <Col xs="auto">{clear}</Col>}
        </Row>
        {actions && (
          <div className="d-flex flex-wrap align-items-center gap-2 mt-3">
            {clear}
            {actions}
          </div>
        )}
        {footer}
      </Card.Body>
    </Card>
  );
}
