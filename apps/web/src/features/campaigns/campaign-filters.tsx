import { memo } from 'react';
import { AWAITING_APPROVAL_FILTER, CAMPAIGN_STATUSES } from '@herald/contract';
import {
  FiltersCard,
  SearchFilter,
  SelectFilter,
  type FilterSearch,
} from '../../components/filters-card';
import {
  EMPTY_CAMPAIGN_FILTERS,
  type CampaignFilterValues,
} from '../../api/campaigns/get-campaigns';

/** Every status, after the one choice that covers the approval queue (both of its statuses). */
const STATUS_OPTIONS = [
  { value: AWAITING_APPROVAL_FILTER, label: AWAITING_APPROVAL_FILTER },
  ...CAMPAIGN_STATUSES,
];

interface CampaignFiltersProps {
  values: CampaignFilterValues;
  onChange: (values: CampaignFilterValues) => void;
  /**
   * The User filter, searched as you type: the matches for `term`; null hides it (a User sees
   * only its own campaigns).
   */
  userFilter: FilterSearch | null;
}

/** The campaigns' Filters card: From Date, To Date, User, Status and Clear Filters. */
export const CampaignFilters = memo(function CampaignFilters(props: CampaignFiltersProps) {
  const { values, onChange, userFilter } = props;
  const set = (key: keyof CampaignFilterValues) => (value: string) =>
    onChange({ ...values, [key]: value });

  return (
    <FiltersCard
      from={{
        controlId: 'campaigns-from',
        label: 'From Date',
        value: values.from,
        onChange: set('from'),
      }}
      to={{ controlId: 'campaigns-to', label: 'To Date', value: values.to, onChange: set('to') }}
      onClear={() => onChange(EMPTY_CAMPAIGN_FILTERS)}
    >
      {userFilter && (
        <SearchFilter
          controlId="campaigns-user"
          label="User"
          emptyLabel="All Users"
          search={userFilter}
          value={values.userEmail}
          onChange={set('userEmail')}
        />
      )}
      <SelectFilter
        controlId="campaigns-status"
        label="Status"
        placeholder="All Statuses"
        options={STATUS_OPTIONS}
        value={values.status}
        onChange={set('status')}
      />
    </FiltersCard>
  );
});
