import { useCallback, useEffect, useRef, useState } from 'react';

/**
 * After a refused submit, focus moves to the first invalid field of the form, so a keyboard or
 * screen reader user lands on what to fix (docs/product.md, Accessibility). Call the returned
 * function with the form (the submit event's currentTarget, taken before any await) where the
 * submit sets the errors: the focus moves once React has drawn them, and never while one types.
 */
export function useFocusFirstInvalid(): (form: EventTarget | null) => void {
  const form = useRef<HTMLElement | null>(null);
  const [attempt, setAttempt] = useState(0);
  useEffect(() => {
    if (attempt === 0) return;
    form.current?.querySelector<HTMLElement>('[aria-invalid="true"], .is-invalid')?.focus();
  }, [attempt]);
  return useCallback((target: EventTarget | null) => {
    form.current = target instanceof HTMLElement ? target : null;
    setAttempt((n) => n + 1);
  }, []);
}
