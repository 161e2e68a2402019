import { memo } from 'react';
import { Button, Card, Col, Row } from 'react-bootstrap';
import { CAMPAIGN_STATUSES } from '@herald/contract';
import { SelectField, TextField, type SelectOption } from '../../components/form-field';
import { SearchSelect } from '../../components/search-select';
import {
  EMPTY_CAMPAIGN_FILTERS,
  type CampaignFilterValues,
} from '../../api/campaigns/get-campaigns';

interface CampaignFiltersProps {
  values: CampaignFilterValues;
  onChange: (values: CampaignFilterValues) => void;
  /**
   * The User filter, searched as you type: the matches for `term`; null hides it (a User sees
   * only its own campaigns).
   */
  userFilter: {
    options: SelectOption[];
    term: string;
    onTermChange: (term: string) => void;
    searching: boolean;
  } | null;
}

/** The Filters card of spec 2.9: From Date, To Date, User, Status and Clear Filters. */
export const CampaignFilters = memo(function CampaignFilters(props: CampaignFiltersProps) {
  const { values, onChange, userFilter } = props;
  const set = (key: keyof CampaignFilterValues) => (value: string) =>
    onChange({ ...values, [key]: value });

  return (
    <Card className="shadow-sm mb-3">
      <Card.Header as="h2" className="h5 mb-0">
        Filters
      </Card.Header>
      <Card.Body>
        <Row className="g-3 align-items-end">
          <Col sm={6} lg>
            <TextField
              controlId="campaigns-from"
              label="From Date"
              type="date"
              className="mb-0"
              value={values.from}
              onChange={set('from')}
            />
          </Col>
          <Col sm={6} lg>
            <TextField
              controlId="campaigns-to"
              label="To Date"
              type="date"
              className="mb-0"
              value={values.to}
              onChange={set('to')}
            />
          </Col>
          {userFilter && (
            <Col sm={6} lg>
              <SearchSelect
                controlId="campaigns-user"
                label="User"
                emptyLabel="All Users"
                className="mb-0"
                term={userFilter.term}
                onTermChange={userFilter.onTermChange}
                options={userFilter.options}
                searching={userFilter.searching}
                value={values.userEmail}
                onChange={set('userEmail')}
              />
            </Col>
          )}
          <Col sm={6} lg>
            <SelectField
              controlId="campaigns-status"
              label="Status"
              placeholder="All Statuses"
              className="mb-0"
              options={CAMPAIGN_STATUSES}
              value={values.status}
              onChange={set('status')}
            />
          </Col>
          <Col xs="auto">
            <Button variant="secondary" onClick={() => onChange(EMPTY_CAMPAIGN_FILTERS)}>
              Clear Filters
            </Button>
          </Col>
        </Row>
      </Card.Body>
    </Card>
  );
});
