/**
 * A centered spinner in Bootstrap's classes alone, for the chunks that stay clear of
 * react-bootstrap (the entry and /login; components/loading-spinner.tsx is the signed-in one).
 */
export function PlainSpinner({ className = 'p-5' }: { className?: string }) {
  return (
    <div className={`d-flex justify-content-center ${className}`}>
      <div className="spinner-border text-primary" role="status">
        <span className="visually-hidden">Loading...</span>
      </div>
    </div>
  );
}
