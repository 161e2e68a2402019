import { memo } from 'react';
import { Button, Card, Col, Row } from 'react-bootstrap';
import { CAMPAIGN_STATUSES } from '@herald/contract';
import { SelectField, TextField, type SelectOption } from '../../components/form-field';
import {
  EMPTY_CAMPAIGN_FILTERS,
  type CampaignFilterValues,
} from '../../api/campaigns/get-campaigns';

interface CampaignFiltersProps {
  values: CampaignFilterValues;
  onChange: (values: CampaignFilterValues) => void;
  /** The User select's options; null hides it (a User sees only its own campaigns). */
  userOptions: SelectOption[] | null;
}

/** The Filters card of spec 2.9: From Date, To Date, User, Status and Clear Filters. */
export const CampaignFilters = memo(function CampaignFilters(props: CampaignFiltersProps) {
  const { values, onChange, userOptions } = props;
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
          {userOptions && (
            <Col sm={6} lg>
              <SelectField
                controlId="campaigns-user"
                label="User"
                placeholder="All Users"
                className="mb-0"
                options={userOptions}
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
