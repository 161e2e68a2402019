/** Shown for a menu entry whose screen has not shipped yet; it says so plainly. */
export function UnavailablePage({ title }: { title: string }) {
  return (
    <div>
      <h1 className="h3 mb-3">{title}</h1>
      <div className="alert alert-secondary" role="status">
        {title} is not available in this version of Herald yet.
      </div>
    </div>
  );
}
