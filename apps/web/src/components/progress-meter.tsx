import type { CSSProperties } from 'react';

interface ProgressMeterProps {
  /** 0-100. */
  now: number;
  /** The bar's accessible name ("Delivery progress"). */
  label: string;
  /** Drawn inside the bar ("40%"), when the bar is wide enough to hold it. */
  text?: string;
  variant?: 'success' | 'danger' | 'primary';
  animated?: boolean;
  style?: CSSProperties;
}

/**
 * A progress bar in Bootstrap 5.3's markup: role, values and name on the outer `.progress`, the
 * drawn `.progress-bar` inside. react-bootstrap's ProgressBar puts the role on the inner bar and
 * a given aria-label on the role-less outer div, which leaves the progressbar without a name
 * (axe: aria-progressbar-name, aria-prohibited-attr; docs/product.md, Accessibility).
 */
export function ProgressMeter({
  now,
  label,
  text,
  variant = 'primary',
  animated = false,
  style,
}: ProgressMeterProps) {
  const value = Math.max(0, Math.min(100, Math.round(now)));
  const bar = ['progress-bar', `bg-${variant}`];
  if (animated) bar.push('progress-bar-striped', 'progress-bar-animated');
  return (
    <div
      className="progress"
      role="progressbar"
      aria-label={label}
      aria-valuenow={value}
      aria-valuemin={0}
      aria-valuemax={100}
      style={style}
    >
      <div className={bar.join(' ')} style={{ width: `${value}%` }}>
        {text}
      </div>
    </div>
  );
}
