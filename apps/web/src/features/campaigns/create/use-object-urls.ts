import { useEffect, useState } from 'react';

const same = (a: readonly File[], b: readonly File[]) =>
  a.length === b.length && a.every((f, i) => f === b[i]);

/**
 * One object URL per chosen file, for thumbnails and the preview: made when the files change
 * and revoked when they change again or the component goes, so no file stays pinned in memory.
 * Callers may pass a new array of the same files on each render: only new files make new URLs.
 */
export function useObjectUrls(files: readonly File[]): string[] {
  const [tracked, setTracked] = useState(files);
  const [made, setMade] = useState<{ files: readonly File[]; urls: string[] } | null>(null);
  if (!same(tracked, files)) setTracked(files);
  useEffect(() => {
    const urls = tracked.map((f) => URL.createObjectURL(f));
    setMade({ files: tracked, urls });
    return () => {
      for (const url of urls) URL.revokeObjectURL(url);
    };
  }, [tracked]);
  // Until the effect runs for new files, the old (revoked) URLs are not shown.
  return made?.files === tracked ? made.urls : [];
}
