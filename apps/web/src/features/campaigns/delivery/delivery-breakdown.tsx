import { Alert, Table } from 'react-bootstrap';
import { SIMULATED_DELIVERY_NOTICE, ui, type Campaign, formatCount } from '@herald/contract';
import { LoadingSpinner } from '../../../components/loading-spinner';
import { errorMessage } from '../../../lib/api-client';
import { useCampaignDelivery } from '../../../api/delivery/get-campaign-delivery';
import { DeliveryProgressCell } from './delivery-progress';

/**
 * The details dialog's delivery section: progress, recipients by state and the
 * provider's errors grouped by code and text. Shown only for a campaign the engine touched.
 */
export function DeliveryBreakdownSection({ campaign }: { campaign: Campaign }) {
  const breakdown = useCampaignDelivery(campaign._id, campaign.delivery !== null);
  if (!campaign.delivery) return null;
  let body;
  if (breakdown.isPending) body = <LoadingSpinner label="Loading delivery..." />;
  else if (breakdown.isError) {
    body = (
      <Alert variant="danger">{errorMessage(breakdown.error, ui.delivery.breakdownFailed)}</Alert>
    );
  } else {
    const { progress, states, errors } = breakdown.data;
    body = (
      <>
        {progress.simulated && (
          <Alert variant="warning" className="py-2 small">
            {SIMULATED_DELIVERY_NOTICE}
          </Alert>
        )}
        <DeliveryProgressCell campaign={{ ...campaign, delivery: progress }} />
        <Table size="sm" className="mt-2 mb-3" aria-label="Recipients by delivery state">
          <tbody>
            {states.map((s) => (
              <tr key={s.state}>
                <th scope="row" className="text-muted fw-normal w-50">
                  {ui.delivery.stateLabels[s.state]}
                </th>
                <td className="text-end">{formatCount(s.count)}</td>
              </tr>
            ))}
          </tbody>
        </Table>
        <h4 className="h6">Provider errors</h4>
        {errors.length === 0 ? (
          <p className="text-muted small">{ui.delivery.noErrors}</p>
        ) : (
          <Table size="sm" striped className="mb-3" aria-label="Provider errors">
            <thead>
              <tr>
                <th>Code</th>
                <th>Error</th>
                <th className="text-end">Recipients</th>
              </tr>
            </thead>
            <tbody>
              {errors.map((e) => (
                <tr key={`${e.code}\u0000${e.text}`}>
                  <td className="text-nowrap">{e.code || '-'}</td>
                  <td className="text-break">{e.text || '-'}</td>
                  <td className="text-end">{formatCount(e.count)}</td>
                </tr>
              ))}
            </tbody>
          </Table>
        )}
      </>
    );
  }
  return (
    <section aria-label="Delivery breakdown">
      <h3 className="h6">{ui.delivery.breakdownTitle}</h3>
      {body}
    </section>
  );
}
