import { Badge } from 'react-bootstrap';

/** Light backgrounds need dark text to stay readable. */
const DARK_TEXT = new Set(['warning', 'info', 'light']);

/** A coloured status label; the caller picks the Bootstrap variant from the contract's table. */
export function StatusBadge({ label, variant }: { label: string; variant: string }) {
  return (
    <Badge bg={variant} text={DARK_TEXT.has(variant) ? 'dark' : undefined}>
      {label}
    </Badge>
  );
}
