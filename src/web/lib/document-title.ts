import { useEffect } from 'react';

/** Names the browser tab `title` while the page shows (none yet: leaves it as it is), then gives the old name back. */
export function useDocumentTitle(title: string | null | undefined) {
  useEffect(() => {
    if (!title) return;
    const previous = document.title;
    document.title = title;
    return () => {
      document.title = previous;
    };
  }, [title]);
}
