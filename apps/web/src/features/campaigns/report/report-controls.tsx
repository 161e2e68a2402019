import { useId } from 'react';
import { Col, Form, Row } from 'react-bootstrap';
import { REPORT_FILTER_LABELS, REPORT_FILTERS, ReportFilterSchema, ui } from '@herald/contract';
import type { ReportFilter } from '@herald/contract';

const t = ui.reports;

/** What the search box accepts as typed: digits only, at most a number's 15. */
export const searchDigits = (typed: string) => typed.replace(/\D/g, '').slice(0, 15);

/** The report's status filter and number search, above its list. */
export function ReportControls({
  status,
  onStatus,
  search,
  onSearch,
}: {
  status: ReportFilter;
  onStatus: (status: ReportFilter) => void;
  search: string;
  onSearch: (typed: string) => void;
}) {
  const statusId = useId();
  const searchId = useId();
  return (
    <Row className="g-2 mb-2 align-items-end">
      <Col xs={12} sm={5}>
        <Form.Label htmlFor={statusId} className="small mb-1">
          {t.filterLabel}
        </Form.Label>
        <Form.Select
          id={statusId}
          size="sm"
          value={status}
          onChange={(e) => onStatus(ReportFilterSchema.parse(e.currentTarget.value))}
        >
          {REPORT_FILTERS.map((f) => (
            <option key={f} value={f}>
              {REPORT_FILTER_LABELS[f]}
            </option>
          ))}
        </Form.Select>
      </Col>
      <Col xs={12} sm={7}>
        <Form.Label htmlFor={searchId} className="small mb-1">
          {t.searchLabel}
        </Form.Label>
        <Form.Control
          id={searchId}
          size="sm"
          type="search"
          inputMode="numeric"
          autoComplete="off"
          placeholder={t.searchPlaceholder}
          title={t.searchHint}
          value={search}
          onChange={(e) => onSearch(searchDigits(e.currentTarget.value))}
        />
      </Col>
    </Row>
  );
}
