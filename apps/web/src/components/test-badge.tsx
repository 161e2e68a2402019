import { Badge } from 'react-bootstrap';
import { ui } from '@herald/contract';

/** Marks a campaign made with a test API key, wherever campaigns are shown. */
export function TestBadge({ test }: { test: boolean }) {
  if (!test) return null;
  return (
    <Badge
      bg="secondary"
      className="ms-2"
      title={ui.campaigns.testBadgeTitle}
      data-testid="test-badge"
    >
      {ui.campaigns.testBadge}
    </Badge>
  );
}
